public import CartCore
public import Observation

/// The live state of one cart for user interfaces: whatever reads a property inside
/// observation tracking (a SwiftUI view's `body`, `withObservationTracking`, `Observations`) is
/// told when that property changes. It is the tutorial's `CartManager`, backed by the persistent
/// `CartService`, so any backend plugs in by injecting its repository.
///
/// ```swift
/// let repository = try SQLiteCartRepository(path: path, busyTimeout: .milliseconds(250))
/// let store = try CartStore(service: CartService(repository: repository), cartID: "alice")
/// store.add("apple", quantity: 2)     // totalItems == 2; views reading it update
/// store.add("no-such-sku")            // lastError == .rule(.unknownProduct(…)); nothing else changes
/// store.startWatching(interval: .milliseconds(500))  // changes from other processes arrive too
/// ```
///
/// Every rule is `CartService`'s. After a call succeeds the store re-reads the cart and assigns
/// only the properties whose values changed, so a view reading `totalItems` is not invalidated
/// when only a price, `version` or `lastError` changed. A call that fails sets `lastError` and
/// leaves everything else as it was.
///
/// ## Why the service is called on the main actor
/// `CartService` is synchronous and may block. The store calls it directly on the main actor:
/// - A unit of work on a local SQLite file takes microseconds to a millisecond. Under WAL,
///   readers never wait for writers; a write waits for another process's write at most the
///   repository's busy timeout, so give the store's repository its own connection and a short
///   timeout (a few hundred milliseconds) for interactive use.
/// - When a method returns, the state already shows its effect, as with the tutorial's
///   `addToCart`; calls and watcher refreshes apply in the order they happen, with no
///   reentrancy and no older snapshot landing after a newer one.
/// - Calling the service from a nonisolated async function instead would park a thread of the
///   cooperative pool (one per core) for as long as SQLite waits: a worse stall, just elsewhere.
///
/// A backend that can block for long (a remote database) is better served by calling
/// `CartService` off the main actor and then `refresh()`. A repository runs one unit at a
/// time on its connection (SQLite's, without readers of its own): writes sent through it
/// from other tasks (`service.async`) come before the store's next read, each waiting up to
/// the busy timeout, so give those writes a repository of their own.
@MainActor
@Observable
public final class CartStore {
    /// The service every read and change goes through.
    public let service: CartService
    /// The cart this store shows.
    public let cartID: String

    /// The lines, in the order their products were first added (the tutorial's `items`).
    public private(set) var items: [CartLine]
    /// The sum of the lines' quantities (the tutorial's `totalItems`).
    public private(set) var totalItems: Int
    /// The exact sum of the line totals (the tutorial's `totalPrice`).
    public private(set) var subtotal: Money
    /// The cart's version: it increases on every change, from any process.
    public private(set) var version: Int
    /// Why the last operation failed; `nil` after one succeeds.
    public private(set) var lastError: CartStoreError?

    /// The change token seen when the state was last read, so that watching re-reads only
    /// after something committed.
    @ObservationIgnored var lastToken: Int64?
    /// The polling task while watching.
    @ObservationIgnored var watchTask: Task<Void, Never>?

    /// Creates a store for one cart and reads it, so the state is real from the start.
    ///
    /// - Throws: `CartError.invalidCartID`, or the backend's storage error.
    public init(service: CartService, cartID: String) throws {
        let token = try service.repository.changeToken()
        let cart = try service.cart(cartID)
        self.service = service
        self.cartID = cart.id
        self.items = cart.lines
        self.totalItems = cart.totalItems
        self.subtotal = cart.subtotal
        self.version = cart.version
        self.lastToken = token
    }

    deinit {
        watchTask?.cancel()
    }

    /// Whether the cart has no lines.
    public var isEmpty: Bool { items.isEmpty }

    /// The quantity of `sku` in the cart, 0 when it has no line.
    public func quantity(of sku: String) -> Int {
        items.first { $0.sku == sku }?.quantity ?? 0
    }

    /// Re-reads the cart now, whatever the change token says.
    public func refresh() {
        perform {}
    }

    /// Forgets `lastError`, as when the interface dismisses its message.
    public func dismissError() {
        if lastError != nil { lastError = nil }
    }

    // MARK: - Applying results

    /// Runs a service call; on success re-reads the cart, applies it and clears `lastError`;
    /// on failure records the error and changes nothing else. A call that succeeded whose
    /// re-read fails still answers its result (a placed order stays placed), with the read's
    /// error in `lastError`; the next poll reads the cart again.
    ///
    /// - Returns: the call's result, or `nil` when it failed.
    @discardableResult
    func perform<Result>(_ call: () throws -> Result) -> Result? {
        let result: Result
        do {
            result = try call()
        } catch {
            record(error)
            return nil
        }
        do {
            try reload()
            dismissError()
        } catch {
            record(error)
        }
        return result
    }

    /// Reads the change token, then the cart, and applies the cart. The token is read first so
    /// that a commit landing between the two reads still moves it for the next poll.
    func reload() throws {
        let token = try service.repository.changeToken()
        apply(try service.cart(cartID))
        lastToken = token
    }

    /// Assigns each property only if its value changed, so that views are not told of
    /// assignments that change nothing, whichever toolchain builds the app.
    func apply(_ cart: Cart) {
        if items != cart.lines { items = cart.lines }
        if totalItems != cart.totalItems { totalItems = cart.totalItems }
        if subtotal != cart.subtotal { subtotal = cart.subtotal }
        if version != cart.version { version = cart.version }
    }

    /// Records a failure in `lastError`, notifying only when it differs from the one shown.
    func record(_ error: any Error) {
        let error = CartStoreError(error)
        if lastError != error { lastError = error }
    }
}
