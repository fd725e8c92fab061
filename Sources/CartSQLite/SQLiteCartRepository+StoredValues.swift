import CartCore

extension SQLiteCartRepository {
    /// An integer column and the range the service can work with: the query that finds the
    /// rows outside it or holding no integer (nor NULL, where NULL means something), with the
    /// row's key in its first columns and the value last.
    struct ColumnRange: Sendable {
        let sql: CachedSQL
        let column: StoredColumnRange

        init(_ column: StoredColumnRange) {
            // Identifiers from the constant list; the range is bound.
            sql = CachedSQL(
                "SELECT " + (column.key + [column.column]).joined(separator: ", ") + " FROM " + column.table + " WHERE "
                    + column.column + " NOT BETWEEN ?1 AND ?2 OR typeof(" + column.column + ") NOT IN ('integer'"
                    + (column.nullable ? ", 'null')" : ")"))
            self.column = column
        }
    }

    /// Every integer column of the schema: those every SQL backend shares, and the active
    /// flag, which SQLite stores as an integer.
    static let columnRanges: [ColumnRange] =
        (StoredColumnRange.all + [
            StoredColumnRange(
                "products", key: ["sku"], column: "active", range: 0...1,
                name: { "the active flag of product '\(DisplayText.clean($0[0]))'" })
        ]).map(ColumnRange.init)

    private static let countSettings = CachedSQL("SELECT count(*) FROM settings WHERE id = 1")
    private static let unusableCurrency = CachedSQL(
        "SELECT currency FROM settings WHERE NOT (currency GLOB '[A-Z][A-Z][A-Z]')")
    private static let productNames = CachedSQL("SELECT sku, name FROM products ORDER BY sku")
    private static let storedCurrency = CachedSQL(
        "SELECT currency, currency_exponent, currency_symbol FROM settings WHERE typeof(currency_exponent) = 'integer'")
    private static let hasSecretTable = CachedSQL(
        "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'store_secret'")
    private static let storeSecrets = CachedSQL("SELECT secret FROM store_secret")

    /// One line per stored value the service cannot work with: an integer outside its range
    /// (`StoredRange`), a value that is not an integer where one belongs, the settings row
    /// missing, a currency code that is not three capital letters, a built-in currency stored
    /// with other digits, a currency symbol `Currency` refuses, a store secret that is not one,
    /// a product name the service refuses as input, an order line's name no product could have
    /// had, a product's or order line's SKU or a cart's ID the service would not take as it is,
    /// a text that is not valid UTF-8. Each but the order line's name and the identifiers is
    /// what the service refuses with a `StoredDataError` when it reads (or, for a product's
    /// name, keeps) that row; an order is history, read as stored. Export and copy refuse the
    /// identifiers, which no lookup finds and no import would take back as they are.
    func storedValueProblems() throws -> [String] {
        var lines: [String] = []
        if try database.scalar(Self.countSettings) != 1 { lines.append("the store has no settings row") }
        let currency = try database.cached(Self.unusableCurrency)
        defer { currency.reset() }
        while try currency.step() {
            lines.append("the store currency '\(DisplayText.clean(currency.shownString(at: 0)))' is not three capital letters A to Z")
        }
        let stored = try database.cached(Self.storedCurrency)
        defer { stored.reset() }
        while try stored.step() {
            let problem = Currency.storedProblem(
                code: stored.shownString(at: 0), minorUnitExponent: stored.int64(at: 1), symbol: (stored.isNull(at: 2) ? nil : stored.shownString(at: 2)))
            if let problem { lines.append(problem.message) }
        }
        // A store whose migrations are pending may not have the table yet.
        if try database.scalar(Self.hasSecretTable) == 1 {
            let secrets = try database.cached(Self.storeSecrets)
            defer { secrets.reset() }
            while try secrets.step() {
                if StoreSecret(hex: secrets.shownString(at: 0)) == nil { lines.append(StoreSecret.unusable.message) }
            }
        }
        let names = try database.cached(Self.productNames)
        defer { names.reset() }
        while try names.step() {
            if let error = StoredDataError.unusableName(names.shownString(at: 1), ofProduct: names.shownString(at: 0)) { lines.append(error.message) }
        }
        for query in Self.columnRanges {
            let (column, keyColumns) = (query.column, Int32(query.column.key.count))
            let rows = try database.cached(query.sql)
            defer { rows.reset() }
            try rows.bind(column.range.lowerBound, at: 1)
            try rows.bind(column.range.upperBound, at: 2)
            while try rows.step() {
                let key = (0..<keyColumns).map { rows.shownString(at: $0) }
                let value = rows.nonInteger(at: keyColumns) ?? StoredRange.outside(rows.int64(at: keyColumns), column.range)
                lines.append("\(column.name(key)) \(value)")
            }
        }
        for table in Self.textColumns {
            let rows = try database.cached(table.sql)
            defer { rows.reset() }
            while try rows.step() {
                for (index, what) in table.columns.enumerated() where !rows.isValidUTF8(at: Int32(index + 1)) {
                    lines.append("\(what) of \(table.owner(rows.shownString(at: 0))) is not valid UTF-8")
                }
                lines += table.rowProblems?(rows) ?? []
            }
        }
        return lines
    }

    /// A table's text columns, which SQLite stores as given, valid UTF-8 or not: the query
    /// reads the row's owner first (shown with U+FFFD for bytes that are not UTF-8), then
    /// the columns `columns` names, in order. `rowProblems` finds what else is wrong with a
    /// row's text, in the same pass over the table.
    struct TextColumns: Sendable {
        let sql: CachedSQL
        let owner: @Sendable (String) -> String
        let columns: [String]
        var rowProblems: (@Sendable (Statement) -> [String])? = nil
    }

    static let textColumns: [TextColumns] = [
        TextColumns(
            sql: CachedSQL("SELECT sku, sku, name FROM products ORDER BY sku"),
            owner: { "product '\(DisplayText.clean($0))'" }, columns: ["the SKU", "the name"],
            rowProblems: { rows in
                [usableText(rows, at: 1).flatMap { StoredDataError.unusableSKU($0) }].compactMap { $0?.message }
            }),
        TextColumns(
            sql: CachedSQL("SELECT id, id FROM carts ORDER BY id"), owner: { "cart '\(DisplayText.clean($0))'" },
            columns: ["the ID"],
            rowProblems: { rows in
                [usableText(rows, at: 1).flatMap { StoredDataError.unusableCartID($0) }].compactMap { $0?.message }
            }),
        TextColumns(
            sql: CachedSQL("SELECT cart_id, cart_id, sku FROM cart_lines ORDER BY cart_id, position"),
            owner: { "a line of cart '\(DisplayText.clean($0))'" }, columns: ["the cart ID", "the SKU"]),
        TextColumns(
            sql: CachedSQL("SELECT number, cart_id, idempotency_key FROM orders ORDER BY number"),
            owner: { "order \($0)" }, columns: ["the cart ID", "the idempotency key"],
            rowProblems: { rows in
                [usableText(rows, at: 1).flatMap { StoredDataError.unusableCartID($0, named: "the cart ID of order \(rows.int64(at: 0))") }]
                    .compactMap { $0?.message }
            }),
        TextColumns(
            sql: CachedSQL("SELECT order_number, sku, name FROM order_lines ORDER BY order_number, position"),
            owner: { "a line of order \($0)" }, columns: ["the SKU", "the name"],
            rowProblems: { rows in
                let (number, sku) = (rows.int64(at: 0), rows.shownString(at: 1))
                return [
                    usableText(rows, at: 1).flatMap { StoredDataError.unusableSKU($0, of: "a line of order \(number)") },
                    StoredDataError.unusableName(rows.shownString(at: 2), ofLineOf: number, sku: sku),
                ].compactMap { $0?.message }
            }),
    ]

    /// The text in `column` of the row, or `nil` when it is not valid UTF-8, a finding of its
    /// own: read with U+FFFD, it would also break the rules of an identifier.
    private static func usableText(_ rows: Statement, at column: Int32) -> String? {
        rows.isValidUTF8(at: column) ? rows.shownString(at: column) : nil
    }
}
