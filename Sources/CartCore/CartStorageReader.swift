/// The reads a backend offers inside a unit of work: the basics every store answers.
///
/// Inside a `write(_:)` unit every read is a locking read: nothing it returns may change under
/// the unit until the unit ends (see `CartRepository`). Faster, optional reads with default
/// implementations are in `CartStorageReader+FastPaths.swift`; a backend overrides one only
/// where it measured a gain, and `CartContract` checks that the override answers as the
/// default does.
public protocol CartStorageReader {
    /// The store settings.
    func settings() throws -> StoreSettings

    /// The product with this SKU, active or not; `nil` when there is none.
    func product(sku: String) throws -> Product?

    /// Every product, active or not, ordered by SKU.
    func products() throws -> [Product]

    /// The cart's header, or `nil` for a cart never written.
    func cartHeader(id: String) throws -> CartHeader?

    /// The cart's lines joined with their products, ordered by position (the order in which
    /// they were first added); empty for a cart never written. Quantities are as stored, in
    /// range or not: `CartService` checks them.
    func cartLines(cartID: String) throws -> [StoredCartLine]

    /// A summary of every stored cart, ordered by ID.
    func carts() throws -> [CartSummary]

    /// The order with this number, with its lines; `nil` when there is none.
    func order(number: OrderNumber) throws -> Order?

    /// The order placed with this idempotency key, with its lines; `nil` when there is none.
    func order(idempotencyKey: String) throws -> Order?

    /// The highest order number, 0 when there are none.
    func lastOrderNumber() throws -> OrderNumber

    /// Calls `body` for every order, with its lines, in number order, one at a time.
    func forEachOrder(_ body: (Order) throws -> Void) throws

    /// The store's secret, or `nil` while it has none.
    func storeSecret() throws -> StoreSecret?

    // Fast paths: declared here so that a backend's override is what a call through
    // `any CartStorageReader` reaches; the defaults are in the extension.

    /// The products with these SKUs, in the same order; `nil` where there is none.
    func products(skus: [String]) throws -> [Product?]
    /// The product with this SKU, its price, stock and active flag as stored, in range or not
    /// (`StoredRange.price`, `.stock`, `.activeFlag`), so that the service can replace or
    /// delete a value another client stored out of range; `nil` when there is none.
    func productAsStored(sku: String) throws -> StoredProduct?
    /// Up to `limit` products (every one when `nil`) whose SKU sorts after `after` (from the
    /// first when `nil`), ordered by SKU; those not for sale only when `includeInactive`.
    func products(after: String?, includeInactive: Bool, limit: Int?) throws -> [Product]
    /// Up to `limit` carts (every one when `nil`) whose ID sorts after `after` (from the first
    /// when `nil`), ordered by ID and summarized as `carts()` summarizes them; only those with
    /// lines when `nonEmpty`.
    func carts(after: String?, nonEmpty: Bool, limit: Int?) throws -> [CartSummary]
    /// How many products exist, active or not.
    func productCount() throws -> Int
    /// How many carts are stored.
    func cartCount() throws -> Int
    /// How many orders exist.
    func orderCount() throws -> Int
    /// What a change to the cart's line for `sku` depends on, in one call, the line's quantity
    /// as stored, in range or not (`CartLineContext.quantity`).
    func lineContext(cartID: String, sku: String) throws -> CartLineContext
    /// The IDs of the carts that have a line for `sku`, sorted.
    func cartsHolding(sku: String) throws -> [String]
    /// The SKUs of the cart's lines whose product is not stored (which `cartLines(cartID:)`
    /// cannot join), in position order.
    func linesWithoutProduct(cartID: String) throws -> [String]
    /// Calls `body` for each order matching `query` (filters, sort, cursor and limit), with its
    /// lines, as `query.select(from:)` orders and cuts them.
    func forEachOrder(matching query: OrderQuery, _ body: (Order) throws -> Void) throws
    /// Statistics over the orders matching `query`'s filters, days beginning at midnight at
    /// `utcOffset`, as `OrderStatsRow.rows(for:groupedBy:utcOffset:currency:)` computes them.
    func orderStats(matching query: OrderQuery, groupedBy grouping: OrderStatsGrouping, utcOffset: UTCOffset) throws
        -> [OrderStatsRow]
}
