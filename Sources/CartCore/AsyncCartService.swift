#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// `CartService` for Swift concurrency callers (a Vapor or Hummingbird app, a SwiftUI task):
/// the same operations, `async`, each run as the synchronous unit it is on `BlockingThreads`,
/// never on the cooperative thread pool.
///
/// ```swift
/// let service = CartService(repository: try SQLiteCartRepository(path: "shop.sqlite3"))
/// let carts = service.async
/// app.post("carts", ":id", "items") { request in
///     let update = try await carts.add(request.sku, quantity: request.quantity, to: request.id)
///     return try await carts.cart(update.cartID)
/// }
/// ```
///
/// Each method throws what its `CartService` counterpart throws. Cancelling the calling task
/// does not interrupt a unit that has started; it commits or rolls back as it would have.
public struct AsyncCartService: Sendable {
    /// The synchronous service the calls run.
    public let service: CartService
    /// The threads the units run on.
    public let threads: BlockingThreads

    /// Wraps a service; its units run on `threads`.
    public init(_ service: CartService, threads: BlockingThreads = .shared) {
        self.service = service
        self.threads = threads
    }

    /// `CartService.cart(_:)`.
    public func cart(_ cartID: String) async throws -> Cart {
        try await threads.run { [service] in try service.cart(cartID) }
    }

    /// `CartService.add(_:quantity:to:expectedVersion:)`.
    @discardableResult
    public func add(_ sku: String, quantity: Int = 1, to cartID: String, expectedVersion: Int? = nil) async throws
        -> CartUpdate
    {
        try await threads.run { [service] in
            try service.add(sku, quantity: quantity, to: cartID, expectedVersion: expectedVersion)
        }
    }

    /// `CartService.remove(_:quantity:from:expectedVersion:)`.
    @discardableResult
    public func remove(_ sku: String, quantity: Int = 1, from cartID: String, expectedVersion: Int? = nil)
        async throws -> CartUpdate
    {
        try await threads.run { [service] in
            try service.remove(sku, quantity: quantity, from: cartID, expectedVersion: expectedVersion)
        }
    }

    /// `CartService.setQuantity(_:to:in:expectedVersion:)`.
    @discardableResult
    public func setQuantity(_ sku: String, to quantity: Int, in cartID: String, expectedVersion: Int? = nil)
        async throws -> CartUpdate
    {
        try await threads.run { [service] in
            try service.setQuantity(sku, to: quantity, in: cartID, expectedVersion: expectedVersion)
        }
    }

    /// `CartService.deleteLine(_:from:expectedVersion:)`.
    @discardableResult
    public func deleteLine(_ sku: String, from cartID: String, expectedVersion: Int? = nil) async throws
        -> CartUpdate
    {
        try await threads.run { [service] in try service.deleteLine(sku, from: cartID, expectedVersion: expectedVersion) }
    }

    /// `CartService.clear(_:expectedVersion:)`.
    @discardableResult
    public func clear(_ cartID: String, expectedVersion: Int? = nil) async throws -> CartUpdate {
        try await threads.run { [service] in try service.clear(cartID, expectedVersion: expectedVersion) }
    }

    /// `CartService.apply(_:to:expectedVersion:)`.
    @discardableResult
    public func apply(_ change: CartChange, to cartID: String, expectedVersion: Int? = nil) async throws -> CartUpdate {
        try await threads.run { [service] in try service.apply(change, to: cartID, expectedVersion: expectedVersion) }
    }

    /// `CartService.applyAndReport(_:to:expectedVersion:)`.
    public func applyAndReport(_ change: CartChange, to cartID: String, expectedVersion: Int? = nil) async throws
        -> (update: CartUpdate, report: CartReport)
    {
        try await threads.run { [service] in
            try service.applyAndReport(change, to: cartID, expectedVersion: expectedVersion)
        }
    }

    /// `CartService.checkout(_:idempotencyKey:expectedVersion:expectedTotal:)`.
    public func checkout(
        _ cartID: String, idempotencyKey: String? = nil, expectedVersion: Int? = nil, expectedTotal: Money? = nil
    ) async throws -> CheckoutResult {
        try await threads.run { [service] in
            try service.checkout(
                cartID, idempotencyKey: idempotencyKey, expectedVersion: expectedVersion, expectedTotal: expectedTotal)
        }
    }

    /// `CartService.merge(from:into:expectedVersion:unwrittenSourceIsEmpty:)`.
    @discardableResult
    public func merge(
        from source: String, into target: String, expectedVersion: Int? = nil, unwrittenSourceIsEmpty: Bool = false
    ) async throws -> MergeResult {
        try await threads.run { [service] in
            try service.merge(
                from: source, into: target, expectedVersion: expectedVersion,
                unwrittenSourceIsEmpty: unwrittenSourceIsEmpty)
        }
    }

    /// `CartService.listCarts()`.
    public func listCarts() async throws -> [CartSummary] {
        try await threads.run { [service] in try service.listCarts() }
    }

    /// `CartService.cartReport(_:)`.
    public func cartReport(_ cartID: String) async throws -> CartReport {
        try await threads.run { [service] in try service.cartReport(cartID) }
    }

    /// `CartService.carts(matching:)`.
    public func carts(matching query: CartQuery) async throws -> CartPage {
        try await threads.run { [service] in try service.carts(matching: query) }
    }

    /// `CartService.prune(olderThan:)`.
    @discardableResult
    public func prune(olderThan instant: Date) async throws -> Int {
        try await threads.run { [service] in try service.prune(olderThan: instant) }
    }

    /// `CartService.prune(notChangedFor:)`.
    @discardableResult
    public func prune(notChangedFor age: Duration) async throws -> Int {
        try await threads.run { [service] in try service.prune(notChangedFor: age) }
    }

    /// `CartService.settings()`.
    public func settings() async throws -> StoreSettings {
        try await threads.run { [service] in try service.settings() }
    }

    /// `CartService.updateSettings(currency:maxLineQuantity:maxLinesPerCart:)`.
    @discardableResult
    public func updateSettings(currency: Currency? = nil, maxLineQuantity: Int? = nil, maxLinesPerCart: Int? = nil)
        async throws -> StoreSettings
    {
        try await threads.run { [service] in
            try service.updateSettings(currency: currency, maxLineQuantity: maxLineQuantity, maxLinesPerCart: maxLinesPerCart)
        }
    }

    /// `CartService.counts()`.
    public func counts() async throws -> StoreCounts {
        try await threads.run { [service] in try service.counts() }
    }

    /// `CartService.storeSecret()`.
    public func storeSecret() async throws -> StoreSecret {
        try await threads.run { [service] in try service.storeSecret() }
    }

    /// `CartService.product(_:)`.
    public func product(_ sku: String) async throws -> Product {
        try await threads.run { [service] in try service.product(sku) }
    }

    /// `CartService.products(includeInactive:)`.
    public func products(includeInactive: Bool = false) async throws -> [Product] {
        try await threads.run { [service] in try service.products(includeInactive: includeInactive) }
    }

    /// `CartService.addProduct(_:)`.
    @discardableResult
    public func addProduct(_ product: Product) async throws -> Product {
        try await threads.run { [service] in try service.addProduct(product) }
    }

    /// `CartService.updateProduct(_:with:)`.
    @discardableResult
    public func updateProduct(_ sku: String, with update: ProductUpdate) async throws -> Product {
        try await threads.run { [service] in try service.updateProduct(sku, with: update) }
    }

    /// `CartService.products(matching:)`.
    public func products(matching query: ProductQuery) async throws -> ProductPage {
        try await threads.run { [service] in try service.products(matching: query) }
    }

    /// `CartService.deleteProduct(_:)`.
    @discardableResult
    public func deleteProduct(_ sku: String) async throws -> Product {
        try await threads.run { [service] in try service.deleteProduct(sku) }
    }

    /// `CartService.importProducts(_:)`.
    @discardableResult
    public func importProducts(_ products: [Product]) async throws -> CartService.ImportSummary {
        try await threads.run { [service] in try service.importProducts(products) }
    }

    /// `CartService.importProducts(_:)` for items that may leave fields as stored.
    @discardableResult
    public func importProducts(_ items: [ProductImport]) async throws -> CartService.ImportSummary {
        try await threads.run { [service] in try service.importProducts(items) }
    }

    /// `CartService.orders(matching:)`.
    public func orders(matching query: OrderQuery) async throws -> OrderPage {
        try await threads.run { [service] in try service.orders(matching: query) }
    }

    /// `CartService.order(_:)`.
    public func order(_ number: OrderNumber) async throws -> Order {
        try await threads.run { [service] in try service.order(number) }
    }

    /// `CartService.forEachOrder(matching:_:)`: `body` runs on the unit's thread, once an
    /// order, while the read is open.
    @discardableResult
    public func forEachOrder(matching query: OrderQuery, _ body: @escaping @Sendable (Order) throws -> Void)
        async throws -> Bool
    {
        try await threads.run { [service] in try service.forEachOrder(matching: query, body) }
    }

    /// `CartService.orderStats(matching:groupedBy:utcOffset:)`.
    public func orderStats(
        matching query: OrderQuery = OrderQuery(), groupedBy grouping: OrderStatsGrouping, utcOffset: UTCOffset? = nil
    ) async throws -> [OrderStatsRow] {
        try await threads.run { [service] in
            try service.orderStats(matching: query, groupedBy: grouping, utcOffset: utcOffset)
        }
    }
}

extension CartService {
    /// This service's `async` face, running units on `BlockingThreads.shared`.
    public var async: AsyncCartService { AsyncCartService(self) }
}
