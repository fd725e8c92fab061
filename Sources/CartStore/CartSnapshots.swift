public import CartCore

/// The snapshots of one cart as it changes, from any connection or process: the cart with the
/// problems that stop its checkout (`CartService.cartReport(_:)`, what `cart show` shows), now
/// first, then again each time either differs from the last one delivered.
///
/// ```swift
/// for try await report in CartSnapshots(service: service, cartID: "alice", interval: .milliseconds(250)) {
///     print(report.cart.totalItems, report.cart.subtotal, report.canCheckOut)
/// }
/// ```
///
/// Every `interval` the iterator polls the repository's change token (for SQLite one
/// `PRAGMA data_version`, no table read) and reads the cart only when the token moved. A commit
/// to another cart moves the token, costs one read, and delivers nothing. A snapshot differs
/// when the cart's version changed, and also when a change elsewhere changed what the cart
/// shows without bumping its version: a product in it renamed, repriced, deactivated or short
/// of stock, or the store's caps changed.
///
/// Its reads run on `BlockingThreads.shared`, as `CartService.async`'s do: iterated on any
/// actor, or on none, it holds neither that actor nor a thread of the cooperative pool while a
/// read waits (for another process's lock, or a database server). One iterator reads one
/// thing at a time, so its snapshots come in order. The sequence ends (returns `nil`) when its task is cancelled, and throws the
/// first error of a read: `CartError.invalidCartID` or the backend's storage error. Iteration
/// may go on after an error: the iterator then waits for the next change, and delivers the
/// next snapshot it reads even if it equals the one delivered before the error.
public struct CartSnapshots: AsyncSequence, Sendable {
    /// Each element is one snapshot: the cart and its problems.
    public typealias Element = CartReport

    /// The service the cart is read through.
    public let service: CartService
    /// The cart watched.
    public let cartID: String
    /// The time between two polls of the change token.
    public let interval: Duration

    /// Creates the sequence; nothing is read until iteration starts.
    public init(service: CartService, cartID: String, interval: Duration = .milliseconds(500)) {
        self.service = service
        self.cartID = cartID
        self.interval = interval
    }

    /// Starts an iteration; each iterator polls on its own.
    public func makeAsyncIterator() -> Iterator {
        Iterator(snapshots: self)
    }

    /// Polls for the next snapshot that differs from the last one delivered.
    public struct Iterator: AsyncIteratorProtocol {
        let snapshots: CartSnapshots
        var lastToken: Int64?
        var lastReport: CartReport?

        /// The next snapshot; `nil` once the task is cancelled.
        ///
        /// - Throws: `CartError.invalidCartID`, `StoredDataError` for a cart whose stored values
        ///   the service cannot use, or the backend's storage error.
        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws -> CartReport? {
            if lastToken == nil { return try await read(at: Self.changeToken(of: snapshots.service), isolation: actor) }
            while true {
                do {
                    try await Task.sleep(for: snapshots.interval)
                } catch {
                    return nil
                }
                let token = try await Self.changeToken(of: snapshots.service)
                guard token != lastToken else { continue }
                if let report = try await read(at: token, isolation: actor) { return report }
            }
        }

        /// The change token of `service`'s repository, read on the blocking threads.
        private static func changeToken(of service: CartService) async throws -> Int64 {
            let repository = service.repository
            return try await BlockingThreads.shared.run { try repository.changeToken() }
        }

        /// The next snapshot; see `next(isolation:)`.
        ///
        /// - Throws: `CartError.invalidCartID`, `StoredDataError` for a cart whose stored values
        ///   the service cannot use, or the backend's storage error.
        public mutating func next() async throws -> CartReport? {
            try await next(isolation: nil)
        }

        /// Reads the cart and its problems after the change token was read as `token`; returns
        /// them if they differ from the last ones. A commit landing after the token was read
        /// moves it again, so the next poll reads once more. A read that fails forgets the
        /// last snapshot, so that whoever was told of the failure is shown the cart again.
        private mutating func read(at token: Int64, isolation actor: isolated (any Actor)?) async throws -> CartReport? {
            lastToken = token
            let report: CartReport
            do {
                report = try await snapshots.service.async.cartReport(snapshots.cartID)
            } catch {
                lastReport = nil
                throw error
            }
            guard report != lastReport else { return nil }
            lastReport = report
            return report
        }
    }
}
