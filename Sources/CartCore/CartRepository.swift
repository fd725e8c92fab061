/// A place carts, products and orders are stored: what a backend implements.
///
/// A repository stores and fetches; it enforces no business rule. `CartService` holds every
/// rule and runs each operation as one unit of work through `write(_:)` or `read(_:)`. A unit
/// reads what it needs through the storage it is handed, decides, and writes:
///
/// ```swift
/// let version = try repository.write { storage in
///     let context = try storage.lineContext(cartID: "alice", sku: "apple")
///     // … CartService checks its rules against the context …
///     try storage.insertCartLine(cartID: "alice", sku: "apple", quantity: 3, position: context.nextLinePosition)
///     try storage.saveCartHeader(
///         CartHeader(
///             id: "alice", version: 1, updatedAt: now, lineCount: context.lineCount + 1,
///             nextLinePosition: context.nextLinePosition + 1),
///         previousVersion: context.cartVersion)
///     return 1
/// }
/// ```
///
/// The contract every implementation meets (`CartContract` checks all of it):
/// - **Atomic:** if the body throws, nothing it wrote remains, and the error is rethrown
///   unchanged. If it returns, everything it wrote is committed before `write(_:)` returns.
/// - **Isolated:** a write unit sees every unit committed before it, and nothing it read can be
///   changed by another unit until it ends. Serialize writers (SQLite's `BEGIN IMMEDIATE`) or
///   lock what each read returns (PostgreSQL's `SELECT … FOR UPDATE`, or a lock on a key whose
///   row does not exist yet). A backend that detects a conflict instead of preventing it may
///   roll the unit back and run the body again: bodies have no effect outside the storage.
/// - **Consistent reads:** a `read(_:)` unit sees one snapshot and never writes. A backend
///   that finds what it read was not one snapshot may run the body again (SQLite does, reading
///   a file this process cannot lock while another process writes it): read bodies, too, have
///   no effect outside the storage that cannot be done twice.
/// - **Dumb storage:** each storage call does the same thing whatever was called before it in
///   the unit; what a write needs is in its parameters, and each call's documentation states
///   what it may assume.
/// - **Blocking and thread-safe:** calls are synchronous, like SQLite's and libpq's C APIs, and a
///   repository serves many threads at once. Do not call the repository from inside a body.
///
/// Swift concurrency callers use `CartService.async`, which runs units on threads of their own.
public protocol CartRepository: Sendable {
    /// Runs `body` as one atomic, isolated unit that may write.
    ///
    /// - Throws: whatever `body` throws (after rolling back), or the backend's storage error,
    ///   which reports an `ErrorCategory` through `CategorizedError`.
    func write<Result>(_ body: (any CartStorageWriter) throws -> Result) throws -> Result

    /// Runs `body` against one consistent snapshot.
    ///
    /// - Throws: whatever `body` throws, or the backend's storage error.
    func read<Result>(_ body: (any CartStorageReader) throws -> Result) throws -> Result

    /// A cheap value that changes whenever any client, in this process or another, commits a
    /// change. Watchers poll it and re-read only when it moved.
    ///
    /// - Throws: the backend's storage error.
    func changeToken() throws -> Int64

    /// Throws when the store answers reads but takes no writes now, found without writing
    /// (a SQLite file opened read-only, a PostgreSQL standby or read-only session): for a
    /// readiness probe, which must not write.
    ///
    /// - Throws: an error of category `readOnly`, or the backend's storage error.
    func checkWritable() throws
}

extension CartRepository {
    /// Finds nothing: a store that cannot tell without writing reports it at the next write.
    public func checkWritable() throws {}
}
