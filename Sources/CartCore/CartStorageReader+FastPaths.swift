/// The default answers of the optional reads, built from the basics. They are complete and
/// correct; a backend overrides one where it can answer in fewer steps (one statement or one
/// round trip) and `cart-bench` shows the gain.
extension CartStorageReader {
    public func products(skus: [String]) throws -> [Product?] {
        try skus.map { try product(sku: $0) }
    }

    /// Reads every product and selects.
    public func products(after: String?, includeInactive: Bool, limit: Int?) throws -> [Product] {
        let selected = try products().lazy.filter { product in
            (includeInactive || product.isActive) && after.map { product.sku > $0 } != false
        }
        return Array(selected.prefix(limit ?? .max))
    }

    /// Reads every cart and selects.
    public func carts(after: String?, nonEmpty: Bool, limit: Int?) throws -> [CartSummary] {
        let selected = try carts().lazy.filter { cart in
            (!nonEmpty || cart.lineCount > 0) && after.map { cart.id > $0 } != false
        }
        return Array(selected.prefix(limit ?? .max))
    }

    public func productCount() throws -> Int { try products().count }

    public func cartCount() throws -> Int { try carts().count }

    public func orderCount() throws -> Int {
        var count = 0
        try forEachOrder { _ in count += 1 }
        return count
    }

    /// `product(sku:)`, which refuses a price, stock or active flag out of range: a store that
    /// keeps this default cannot hold one, or has it mended outside the service.
    public func productAsStored(sku: String) throws -> StoredProduct? {
        try product(sku: sku).map { StoredProduct(product: $0) }
    }

    /// Reads the header, the product, the cart's lines and the settings.
    public func lineContext(cartID: String, sku: String) throws -> CartLineContext {
        let header = try cartHeader(id: cartID)
        let lines = header == nil ? [] : try cartLines(cartID: cartID)
        return CartLineContext(
            cartVersion: header?.version, lineCount: header?.lineCount ?? 0,
            nextLinePosition: header?.nextLinePosition ?? 1, terms: try product(sku: sku)?.terms,
            quantity: lines.first { $0.product.sku == sku }?.quantity, settings: try settings())
    }

    /// Reads every cart's lines.
    public func cartsHolding(sku: String) throws -> [String] {
        try carts().map(\.id).filter { id in try cartLines(cartID: id).contains { $0.product.sku == sku } }
    }

    /// None: a store that meets the assumptions of `insertCartLine` (its product exists) and
    /// `deleteProduct` (no line holds it) cannot hold such a line. A backend that another
    /// client can write around those checks (SQLite opened with foreign keys off) answers
    /// from its storage, so that `CartService` reports such lines instead of hiding them.
    public func linesWithoutProduct(cartID: String) throws -> [String] { [] }

    /// Reads every order and selects with `OrderQuery.select(from:)`: memory grows with the
    /// number of orders, which suits a store that holds them in memory anyway.
    public func forEachOrder(matching query: OrderQuery, _ body: (Order) throws -> Void) throws {
        var orders: [Order] = []
        try forEachOrder { orders.append($0) }
        for order in query.select(from: orders) { try body(order) }
    }

    /// Reads every order matching the filters and groups them with
    /// `OrderStatsRow.rows(for:groupedBy:utcOffset:currency:)`.
    public func orderStats(matching query: OrderQuery, groupedBy grouping: OrderStatsGrouping, utcOffset: UTCOffset)
        throws -> [OrderStatsRow]
    {
        var orders: [Order] = []
        try forEachOrder { order in if query.includes(order) { orders.append(order) } }
        return try OrderStatsRow.rows(
            for: orders, groupedBy: grouping, utcOffset: utcOffset, currency: try settings().currency)
    }
}
