public import CartCore

/// What a backend's factory hands a contract case: a fresh repository, and whatever must live
/// as long as it.
///
/// ```swift
/// try await check.run { settings in
///     let directory = try ScratchDirectory()  // a type of yours whose deinit deletes it
///     let repository = try SQLiteCartRepository(path: directory.path("cart.sqlite3"), initialSettings: settings)
///     return ContractRepository(repository, keeping: directory)
/// }
/// ```
///
/// When the case ends, after it has released the repository, `tearDown` runs and then the
/// resources are released, so a directory's deinit may delete the files the repository used.
public struct ContractRepository {
    /// The repository the case runs against.
    public let repository: any CartRepository
    let resources: [Any]
    let tearDown: () throws -> Void

    /// Wraps a repository, with resources the case keeps until it ends and a clean-up step
    /// (dropping a database on a server, say) that runs then; an error it throws is recorded
    /// as an issue of the case.
    public init(_ repository: any CartRepository, keeping resources: Any..., tearDown: @escaping () throws -> Void = {}) {
        self.repository = repository
        self.resources = resources
        self.tearDown = tearDown
    }
}
