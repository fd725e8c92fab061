import CartCore

extension SQLiteCartRepository {
    /// An integer column and the range the service can work with: the query that finds the
    /// rows outside it or holding no integer (nor NULL, where NULL means something), with the
    /// row's key in its first columns and the value last, and how a finding names the value of
    /// a row by its key.
    struct ColumnRange: Sendable {
        let sql: CachedSQL
        let range: ClosedRange<Int64>
        let keyColumns: Int32
        let name: @Sendable ([String]) -> String

        init(
            _ table: String, key: [String], column: String, range: ClosedRange<Int64>, nullable: Bool = false,
            name: @escaping @Sendable ([String]) -> String
        ) {
            // Identifiers from the constant list below; the range is bound.
            sql = CachedSQL(
                "SELECT " + (key + [column]).joined(separator: ", ") + " FROM " + table + " WHERE " + column
                    + " NOT BETWEEN ?1 AND ?2 OR typeof(" + column + ") NOT IN ('integer'" + (nullable ? ", 'null')" : ")"))
            self.range = range
            keyColumns = Int32(key.count)
            self.name = name
        }
    }

    /// Every integer column of the schema. A counter the service increments (a version, a
    /// line count or position, an order number) must also stay below the largest integer, or
    /// the next change cannot be counted.
    static let columnRanges: [ColumnRange] = {
        let belowMaximum = Int64.max - 1
        @Sendable func cart(_ key: [String]) -> String { "cart '\(DisplayText.clean(key[0]))'" }
        @Sendable func product(_ key: [String]) -> String { "product '\(DisplayText.clean(key[0]))'" }
        @Sendable func cartLine(_ key: [String]) -> String { "'\(DisplayText.clean(key[1]))' in cart '\(DisplayText.clean(key[0]))'" }
        @Sendable func orderLine(_ key: [String]) -> String { "line \(key[1]) of order \(key[0])" }
        let settings: [String] = []
        return [
            ColumnRange(
                "settings", key: settings, column: "currency_exponent", range: StoredRange.currencyExponent,
                name: { _ in "the currency's minor-unit digits" }),
            ColumnRange(
                "settings", key: settings, column: "max_line_quantity", range: StoredRange.maxLineQuantity,
                name: { _ in "the maximum line quantity setting" }),
            ColumnRange(
                "settings", key: settings, column: "max_lines_per_cart", range: StoredRange.maxLinesPerCart,
                name: { _ in "the maximum lines per cart setting" }),
            ColumnRange(
                "products", key: ["sku"], column: "price", range: StoredRange.price,
                name: { "the price of \(product($0))" }),
            ColumnRange(
                "products", key: ["sku"], column: "active", range: 0...1, name: { "the active flag of \(product($0))" }),
            ColumnRange(
                "products", key: ["sku"], column: "stock", range: StoredRange.stock, nullable: true,
                name: { "the stock of \(product($0))" }),
            ColumnRange(
                "carts", key: ["id"], column: "version", range: StoredRange.version.lowerBound...belowMaximum,
                name: { "the version of \(cart($0))" }),
            ColumnRange(
                "carts", key: ["id"], column: "updated_at", range: StoredRange.instant,
                name: { "the time \(cart($0)) last changed" }),
            ColumnRange(
                "carts", key: ["id"], column: "line_count", range: StoredRange.lineCount.lowerBound...belowMaximum,
                name: { "the line count of \(cart($0))" }),
            ColumnRange(
                "carts", key: ["id"], column: "next_position", range: StoredRange.position.lowerBound...belowMaximum,
                name: { "the next line position of \(cart($0))" }),
            ColumnRange(
                "cart_lines", key: ["cart_id", "sku"], column: "quantity", range: StoredRange.lineQuantity,
                name: { "the quantity of \(cartLine($0))" }),
            ColumnRange(
                "cart_lines", key: ["cart_id", "sku"], column: "position", range: StoredRange.position,
                name: { "the position of \(cartLine($0))" }),
            ColumnRange(
                "orders", key: ["number"], column: "number", range: StoredRange.orderNumber.lowerBound...belowMaximum,
                name: { _ in "an order number" }),
            ColumnRange(
                "orders", key: ["number"], column: "placed_at", range: StoredRange.instant,
                name: { "the time order \($0[0]) was placed" }),
            ColumnRange(
                "orders", key: ["number"], column: "total_items", range: StoredRange.orderItems,
                name: { "the units of order \($0[0])" }),
            ColumnRange(
                "orders", key: ["number"], column: "total", range: StoredRange.amount,
                name: { "the total of order \($0[0])" }),
            ColumnRange(
                "order_lines", key: ["order_number", "position"], column: "position", range: StoredRange.position,
                name: { "the position of \(orderLine($0))" }),
            ColumnRange(
                "order_lines", key: ["order_number", "position"], column: "unit_price", range: StoredRange.price,
                name: { "the unit price of \(orderLine($0))" }),
            ColumnRange(
                "order_lines", key: ["order_number", "position"], column: "quantity", range: StoredRange.lineQuantity,
                name: { "the quantity of \(orderLine($0))" }),
            ColumnRange(
                "order_lines", key: ["order_number", "position"], column: "line_total", range: StoredRange.amount,
                name: { "the total of \(orderLine($0))" }),
            ColumnRange(
                "order_lines", key: ["order_number", "position"], column: "placed_at", range: StoredRange.instant,
                name: { "the time on \(orderLine($0))" }),
            ColumnRange(
                "schema_migrations", key: ["name"], column: "applied_at", range: StoredRange.instant,
                name: { "the time migration \(DisplayText.clean($0[0])) was applied" }),
        ]
    }()

    private static let countSettings = CachedSQL("SELECT count(*) FROM settings WHERE id = 1")
    private static let unusableCurrency = CachedSQL(
        "SELECT currency FROM settings WHERE NOT (currency GLOB '[A-Z][A-Z][A-Z]')")
    private static let productNames = CachedSQL("SELECT sku, name FROM products ORDER BY sku")
    private static let currencySymbol = CachedSQL("SELECT currency, currency_symbol FROM settings WHERE currency_symbol IS NOT NULL")

    /// One line per stored value the service cannot work with: an integer outside its range
    /// (`StoredRange`), a value that is not an integer where one belongs, the settings row
    /// missing, a currency code that is not three capital letters, a currency symbol
    /// `Currency` refuses, a product name the service refuses as input. Each is what the
    /// service refuses with a `StoredDataError` when it reads (or, for a name, keeps) that row.
    func storedValueProblems() throws -> [String] {
        var lines: [String] = []
        if try database.scalar(Self.countSettings) != 1 { lines.append("the store has no settings row") }
        let currency = try database.cached(Self.unusableCurrency)
        defer { currency.reset() }
        while try currency.step() {
            lines.append("the store currency '\(DisplayText.clean(currency.string(at: 0)))' is not three capital letters A to Z")
        }
        let symbol = try database.cached(Self.currencySymbol)
        defer { symbol.reset() }
        while try symbol.step() {
            if let problem = Currency.storedSymbolProblem(code: symbol.string(at: 0), symbol: symbol.string(at: 1)) {
                lines.append(problem.message)
            }
        }
        let names = try database.cached(Self.productNames)
        defer { names.reset() }
        while try names.step() {
            if let error = StoredDataError.unusableName(names.string(at: 1), ofProduct: names.string(at: 0)) { lines.append(error.message) }
        }
        for column in Self.columnRanges {
            let rows = try database.cached(column.sql)
            defer { rows.reset() }
            try rows.bind(column.range.lowerBound, at: 1)
            try rows.bind(column.range.upperBound, at: 2)
            while try rows.step() {
                let key = (0..<column.keyColumns).map { rows.string(at: $0) }
                let value = rows.nonInteger(at: column.keyColumns) ?? StoredRange.outside(rows.int64(at: column.keyColumns), column.range)
                lines.append("\(column.name(key)) \(value)")
            }
        }
        return lines
    }
}
