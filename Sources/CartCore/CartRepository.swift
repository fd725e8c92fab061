#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A place carts, products and orders are stored: what a backend implements.
///
/// A repository stores and fetches; it enforces no business rule. `CartService` holds every
/// rule and runs each operation as one atomic unit through `write(_:)` or `read(_:)`:
///
/// ```swift
/// let update = try repository.write { storage in
///     let settings = try storage.settings()
///     let header = try storage.lockCart(id: "alice")          // read for update
///     // … check the rules …
///     try storage.setCartLine(cartID: "alice", sku: "apple", quantity: 3)
///     try storage.saveCartHeader(CartHeader(id: "alice", version: 4, updatedAt: now))
/// }
/// ```
///
/// The contract an implementation must meet (the contract suite in `Tests/CartContractTests`
/// checks all of it):
/// - `write(_:)` is atomic and isolated: the body sees every earlier committed unit, no other
///   unit can change what the body read before it commits (serialize writers, as SQLite's
///   `BEGIN IMMEDIATE` does, or lock rows, as PostgreSQL's `SELECT … FOR UPDATE` in
///   `lockCart(id:)` and `lockProduct(sku:)` would), and if the body throws, nothing it wrote
///   remains. Errors thrown by the body are rethrown unchanged.
/// - `read(_:)` sees one consistent snapshot and never writes.
/// - Backends keep lines in the order they were first inserted and return them in that order.
/// - Calls are synchronous and blocking, like SQLite's and libpq's C APIs; a repository is
///   safe to use from many threads. Do not call the repository again from inside a body.
public protocol CartRepository: Sendable {
    /// Runs `body` as one atomic unit that may write.
    ///
    /// - Throws: whatever `body` throws (after rolling back), or the backend's storage error.
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
}

/// The storage reads a backend offers inside a unit of work.
public protocol CartStorageReader {
    /// The store settings.
    func settings() throws -> StoreSettings
    /// The product with this SKU, active or not.
    func product(sku: String) throws -> Product?
    /// Every product ordered by SKU; inactive ones only when asked.
    func products(includeInactive: Bool) throws -> [Product]
    /// How many products exist, active or not.
    func productCount() throws -> Int
    /// The cart's header, or `nil` for a cart never written.
    func cartHeader(id: String) throws -> CartHeader?
    /// The cart's lines joined with their products, in the order first added.
    func cartLines(cartID: String) throws -> [StoredCartLine]
    /// The quantity of one line, or `nil` when the cart has no line for the SKU.
    func cartLineQuantity(cartID: String, sku: String) throws -> Int?
    /// How many lines the cart has.
    func cartLineCount(cartID: String) throws -> Int
    /// Every stored cart, ordered by ID.
    func carts() throws -> [CartSummary]
    /// How many carts are stored.
    func cartCount() throws -> Int
    /// The order with this number, with its lines.
    func order(number: OrderNumber) throws -> Order?
    /// The order placed with this idempotency key, with its lines.
    func order(idempotencyKey: String) throws -> Order?
    /// The highest order number, 0 when there are none.
    func lastOrderNumber() throws -> OrderNumber
    /// Calls `body` for each order matching `query` (filters, sort, cursor and limit), with its
    /// lines, one at a time, so memory does not grow with the number of orders.
    func forEachOrder(matching query: OrderQuery, _ body: (Order) throws -> Void) throws
    /// Statistics over the orders matching `query`'s filters (its sort, cursor and limit are
    /// ignored).
    func orderStats(matching query: OrderQuery, groupedBy grouping: OrderStatsGrouping) throws -> [OrderStatsRow]
    /// How many orders exist.
    func orderCount() throws -> Int
}

/// The storage writes a backend offers inside a `write(_:)` unit, besides its reads.
public protocol CartStorageWriter: CartStorageReader {
    /// Reads the cart's header for update: no other unit may change the cart until this one
    /// ends.
    func lockCart(id: String) throws -> CartHeader?
    /// Reads a product for update: no other unit may change it until this one ends.
    func lockProduct(sku: String) throws -> Product?
    /// Reads for update what a change to one line depends on: the cart's version, the product's
    /// terms, the line's quantity and, when the cart has no such line, its line count. It is what
    /// `lockCart(id:)`, `lockProduct(sku:)`, `cartLineQuantity(cartID:sku:)` and
    /// `cartLineCount(cartID:)` return, in one call a backend can answer in one round trip.
    func lockCartLine(cartID: String, sku: String) throws -> CartLineContext
    /// Reads the cart's lines with their products for update: no other unit may change those
    /// lines or products (their stock) until this one ends.
    func lockCartLines(cartID: String) throws -> [StoredCartLine]
    /// Replaces the store settings.
    func saveSettings(_ settings: StoreSettings) throws
    /// Inserts or replaces a product.
    func saveProduct(_ product: Product) throws
    /// Sets the tracked stock of an existing product (`nil` stops tracking), leaving its other
    /// fields: what `saveProduct(_:)` of the product with only its stock changed stores, in a
    /// call a backend can answer by writing one column.
    func saveStock(sku: String, stock: Int?) throws
    /// Inserts or replaces a product unless the very same product is stored, and says which
    /// it did: `saveProduct(_:)` preceded by `product(sku:)`, in one call a backend can answer
    /// with one statement for a new product.
    func upsertProduct(_ product: Product) throws -> ProductChange
    /// Stores each product as `upsertProduct(_:)` would, in order, and counts how many were
    /// created and how many updated (the rest were unchanged): in one call a backend can
    /// answer with one statement for many new products. A backend without such a statement
    /// gets the loop over `upsertProduct(_:)` from the protocol extension.
    func upsertProducts(_ products: [Product]) throws -> ProductUpsertCounts
    /// Sets a line's quantity, appending the line if the cart has none for the SKU.
    func setCartLine(cartID: String, sku: String, quantity: Int) throws
    /// Removes one line.
    func deleteCartLine(cartID: String, sku: String) throws
    /// Removes every line of the cart; how many there were.
    @discardableResult
    func deleteCartLines(cartID: String) throws -> Int
    /// Inserts or replaces the cart's header.
    func saveCartHeader(_ header: CartHeader) throws
    /// Deletes carts (headers and lines) whose `updatedAt` is before `instant`; returns how many.
    func deleteCarts(updatedBefore instant: Date) throws -> Int
    /// Stores a new order and its lines.
    func insertOrder(_ order: Order) throws
}

extension CartStorageWriter {
    /// `upsertProduct(_:)` for each product, in order, counting what each did.
    public func upsertProducts(_ products: [Product]) throws -> ProductUpsertCounts {
        var counts = ProductUpsertCounts()
        for product in products { counts.count(try upsertProduct(product)) }
        return counts
    }
}
