/// An integer column of the schema every SQL backend shares, the range of it the service can
/// work with (`StoredRange`), and how a finding of `StoreMaintenance.check()` names a row's
/// value by the row's key: `the price of product 'apple' is -5, below 0`.
public struct StoredColumnRange: Sendable {
    /// The table, a constant of this list, never a name read from the store.
    public let table: String
    /// The columns that name a row, in the order `name` takes their values as text.
    public let key: [String]
    /// The integer column.
    public let column: String
    /// The values the service can work with.
    public let range: ClosedRange<Int64>
    /// Whether NULL is a value of its own (no stock tracked) rather than a damaged row.
    public let nullable: Bool
    /// The value's name, given the row's key as text: `the price of product 'apple'`.
    public let name: @Sendable ([String]) -> String

    /// Creates a column's range.
    public init(
        _ table: String, key: [String], column: String, range: ClosedRange<Int64>, nullable: Bool = false,
        name: @escaping @Sendable ([String]) -> String
    ) {
        self.table = table
        self.key = key
        self.column = column
        self.range = range
        self.nullable = nullable
        self.name = name
    }

    /// The integer columns of the schema every SQL backend shares. A counter the service
    /// increments (a version, a line count or position, an order number) must also stay below
    /// the largest integer, or the next change cannot be counted.
    public static let all: [StoredColumnRange] = {
        let belowMaximum = Int64.max - 1
        @Sendable func cart(_ key: [String]) -> String { "cart '\(DisplayText.clean(key[0]))'" }
        @Sendable func product(_ key: [String]) -> String { "product '\(DisplayText.clean(key[0]))'" }
        @Sendable func cartLine(_ key: [String]) -> String { "'\(DisplayText.clean(key[1]))' in cart '\(DisplayText.clean(key[0]))'" }
        @Sendable func orderLine(_ key: [String]) -> String { "line \(key[1]) of order \(key[0])" }
        let settings: [String] = []
        return [
            StoredColumnRange(
                "settings", key: settings, column: "currency_exponent", range: StoredRange.currencyExponent,
                name: { _ in "the currency's minor-unit digits" }),
            StoredColumnRange(
                "settings", key: settings, column: "max_line_quantity", range: StoredRange.maxLineQuantity,
                name: { _ in "the maximum line quantity setting" }),
            StoredColumnRange(
                "settings", key: settings, column: "max_lines_per_cart", range: StoredRange.maxLinesPerCart,
                name: { _ in "the maximum lines per cart setting" }),
            StoredColumnRange(
                "products", key: ["sku"], column: "price", range: StoredRange.price,
                name: { "the price of \(product($0))" }),
            StoredColumnRange(
                "products", key: ["sku"], column: "stock", range: StoredRange.stock, nullable: true,
                name: { "the stock of \(product($0))" }),
            StoredColumnRange(
                "carts", key: ["id"], column: "version", range: StoredRange.version.lowerBound...belowMaximum,
                name: { "the version of \(cart($0))" }),
            StoredColumnRange(
                "carts", key: ["id"], column: "updated_at", range: StoredRange.instant,
                name: { "the time \(cart($0)) last changed" }),
            StoredColumnRange(
                "carts", key: ["id"], column: "line_count", range: StoredRange.lineCount.lowerBound...belowMaximum,
                name: { "the line count of \(cart($0))" }),
            StoredColumnRange(
                "carts", key: ["id"], column: "next_position", range: StoredRange.position.lowerBound...belowMaximum,
                name: { "the next line position of \(cart($0))" }),
            StoredColumnRange(
                "cart_lines", key: ["cart_id", "sku"], column: "quantity", range: StoredRange.lineQuantity,
                name: { "the quantity of \(cartLine($0))" }),
            StoredColumnRange(
                "cart_lines", key: ["cart_id", "sku"], column: "position", range: StoredRange.position,
                name: { "the position of \(cartLine($0))" }),
            StoredColumnRange(
                "orders", key: ["number"], column: "number", range: StoredRange.orderNumber.lowerBound...belowMaximum,
                name: { _ in "an order number" }),
            StoredColumnRange(
                "orders", key: ["number"], column: "placed_at", range: StoredRange.instant,
                name: { "the time order \($0[0]) was placed" }),
            StoredColumnRange(
                "orders", key: ["number"], column: "total_items", range: StoredRange.orderItems,
                name: { "the units of order \($0[0])" }),
            StoredColumnRange(
                "orders", key: ["number"], column: "total", range: StoredRange.amount,
                name: { "the total of order \($0[0])" }),
            StoredColumnRange(
                "order_lines", key: ["order_number", "position"], column: "position", range: StoredRange.position,
                name: { "the position of \(orderLine($0))" }),
            StoredColumnRange(
                "order_lines", key: ["order_number", "position"], column: "unit_price", range: StoredRange.price,
                name: { "the unit price of \(orderLine($0))" }),
            StoredColumnRange(
                "order_lines", key: ["order_number", "position"], column: "quantity", range: StoredRange.lineQuantity,
                name: { "the quantity of \(orderLine($0))" }),
            StoredColumnRange(
                "order_lines", key: ["order_number", "position"], column: "line_total", range: StoredRange.amount,
                name: { "the total of \(orderLine($0))" }),
            StoredColumnRange(
                "order_lines", key: ["order_number", "position"], column: "placed_at", range: StoredRange.instant,
                name: { "the time on \(orderLine($0))" }),
            StoredColumnRange(
                "schema_migrations", key: ["name"], column: "applied_at", range: StoredRange.instant,
                name: { "the time migration \(DisplayText.clean($0[0])) was applied" }),
        ]
    }()
}
