import CartCore

/// The storage handed to one unit of work of a `PostgresCartRepository`: reads and writes on
/// the unit's connection, inside the transaction the repository opened.
///
/// In a write unit (`locks` true) every read locks what it returns until the unit ends: rows
/// with `FOR UPDATE` (products and carts with `FOR NO KEY UPDATE`, the lock their own UPDATE
/// takes, which leaves other carts free to add lines of the product), products read for a
/// line change with `FOR SHARE`, whole tables in `SHARE` mode for counts and listings, and
/// the settings table in `ROW SHARE` mode from its first read of them, which a settings
/// change's `EXCLUSIVE` lock waits out. Read units lock nothing: they read one snapshot, which
/// a settings change does not disturb, so a long read (an export streamed to a slow client)
/// neither holds a settings change off nor leaves other units queued behind one. A row that
/// does not exist yet cannot be locked: a unit that goes on to insert it finds it stored by
/// then and fails with a retryable error, and the repository runs the unit again, which then
/// sees the row. Idempotency keys are locked by an advisory lock on their hash, since a
/// checkout decides from the absence of a key.
///
/// Each write runs at once and checks its row count, so a write whose assumption does not
/// hold is refused at the call with a `PostgresStoreError`, changes nothing, and leaves the
/// unit usable; only `saveSettings`, which assumes nothing, travels with the next statement.
/// Carts are in `PostgresCartStorage+Carts.swift`, orders in `PostgresCartStorage+Orders.swift`.
final class PostgresCartStorage: CartStorageWriter {
    let connection: PostgresConnection
    /// Whether the unit may write, and its reads lock what they return.
    let locks: Bool
    /// Whether the unit wrote anything, which its repository counts as a change.
    private(set) var hasWritten = false
    /// The settings once read or saved in this unit, in which they cannot change.
    var knownSettings: StoreSettings?
    /// Whether this write unit holds its lock on the settings table.
    private var holdsSettingsLock = false

    init(connection: PostgresConnection, locks: Bool) {
        self.connection = connection
        self.locks = locks
    }

    /// Runs a statement and returns its rows; in a write unit, `lock` (a table or row lock the
    /// read needs) runs just before it. In a write unit that has not read the settings, they
    /// are locked and read first, all in the same round trip: every write unit then holds its
    /// share of the settings table before it locks a row or table, so none waits behind a
    /// settings change's exclusive lock while holding what a unit it waits for needs.
    func rows(_ sql: PostgresSQL, _ parameters: [PostgresValue] = [], lock: PostgresStatement? = nil) throws
        -> PostgresResult
    {
        guard locks else { return try connection.execute(sql, parameters) }
        let readsSettings = knownSettings == nil
        if readsSettings { queueSettingsShare() }
        let statements =
            (readsSettings ? [PostgresStatement(Self.selectSettings)] : []) + (lock.map { [$0] } ?? [])
            + [PostgresStatement(sql, parameters)]
        guard statements.count > 1 else { return try connection.execute(sql, parameters) }
        let results = try connection.pipeline(statements)
        if readsSettings { knownSettings = try Self.settings(in: results[0]) }
        return results[results.count - 1]
    }

    /// Runs a write and returns the rows it returns.
    func write(_ sql: PostgresSQL, _ parameters: [PostgresValue]) throws -> PostgresResult {
        hasWritten = true
        return try connection.execute(sql, parameters)
    }

    /// Runs a write and returns how many rows it changed.
    func change(_ sql: PostgresSQL, _ parameters: [PostgresValue]) throws -> Int {
        try write(sql, parameters).affectedRows
    }

    // MARK: Settings

    static let selectSettings: PostgresSQL =
        "SELECT currency, currency_exponent, currency_symbol, max_line_quantity, max_lines_per_cart FROM settings WHERE id = 1"

    func settings() throws -> StoreSettings {
        if let knownSettings { return knownSettings }
        queueSettingsShare()
        let settings = try Self.settings(in: try connection.execute(Self.selectSettings))
        knownSettings = settings
        return settings
    }

    // A reader on the same connection, so in the same transaction, and with the settings
    // this unit already read.
    var readerWithoutLocks: any CartStorageReader {
        guard locks else { return self }
        let reader = PostgresCartStorage(connection: connection, locks: false)
        reader.knownSettings = knownSettings
        return reader
    }

    // Two units that would each read the settings and then wait for the other's share of the
    // table to go would deadlock: the exclusive lock comes first.
    func settingsForChange() throws -> StoreSettings {
        if locks { queueExclusiveSettingsLock() }
        return try settings()
    }

    /// In a write unit that does not hold it yet, queues its share of the settings table:
    /// `ROW SHARE`, which other write units' shares and every read leave free, and which a
    /// settings change's `EXCLUSIVE` lock waits for.
    func queueSettingsShare() {
        guard locks, !holdsSettingsLock else { return }
        connection.queue(Self.shareSettings)
        holdsSettingsLock = true
    }

    private func queueExclusiveSettingsLock() {
        connection.queue(Self.lockSettings)
        holdsSettingsLock = true
    }

    /// The settings in the answer to `selectSettings`.
    static func settings(in result: PostgresResult) throws -> StoreSettings {
        guard let row = result.first else { throw PostgresStoreError.missingRow("settings row") }
        return try settings(row, at: 0)
    }

    /// The settings stored in columns `first ..< first + 5`, in `selectSettings`'s order.
    static func settings(_ row: PostgresRow, at first: Int) throws -> StoreSettings {
        StoreSettings(
            currency: try currency(row, at: first),
            maxLineQuantity: try row.int(first + 3, in: StoredRange.maxLineQuantity, "the maximum line quantity setting"),
            maxLinesPerCart: try row.int(first + 4, in: StoredRange.maxLinesPerCart, "the maximum lines per cart setting"))
    }

    /// The currency stored in columns `first ..< first + 3`: code, exponent, symbol.
    static func currency(_ row: PostgresRow, at first: Int) throws -> Currency {
        try Currency(storedCode: try row.string(first), minorUnitExponent: try row.int64(first + 1), symbol: try row.optionalString(first + 2))
    }

    private static let shareSettings: PostgresSQL = "LOCK TABLE settings IN ROW SHARE MODE"
    private static let lockSettings: PostgresSQL = "LOCK TABLE settings IN EXCLUSIVE MODE"
    private static let saveSettingsSQL: PostgresSQL = """
        INSERT INTO settings (id, currency, currency_exponent, currency_symbol, max_line_quantity, max_lines_per_cart)
        VALUES (1, $1, $2, $3, $4, $5)
        ON CONFLICT (id) DO UPDATE SET
            currency = excluded.currency, currency_exponent = excluded.currency_exponent,
            currency_symbol = excluded.currency_symbol, max_line_quantity = excluded.max_line_quantity,
            max_lines_per_cart = excluded.max_lines_per_cart
        """

    // The exclusive lock waits until every other write unit that read the settings has ended,
    // and holds new ones off until this one does; reads go on, each in its own snapshot.
    func saveSettings(_ settings: StoreSettings) throws {
        hasWritten = true
        queueExclusiveSettingsLock()
        connection.queue(
            Self.saveSettingsSQL,
            [
                .text(settings.currency.code), PostgresValue(settings.currency.minorUnitExponent),
                PostgresValue(settings.currency.symbol), PostgresValue(settings.maxLineQuantity),
                PostgresValue(settings.maxLinesPerCart),
            ])
        knownSettings = settings
    }

    // MARK: Products

    static let productColumns = "sku, name, price, active, stock"

    /// Reads a product from columns `first ..< first + 5`: sku, name, price, active, stock.
    /// Reads a product from columns `first ..< first + 5`; with `asStored`, its price and stock
    /// as stored, in range or not.
    func product(from row: PostgresRow, at first: Int = 0, asStored: Bool = false) throws -> Product {
        let sku = try row.string(first)
        let terms = try Self.terms(from: row, at: first + 2, sku: sku, currency: try settings().currency, asStored: asStored)
        return Product(sku: sku, name: try row.string(first + 1), price: terms.price, isActive: terms.isActive, stock: terms.stock)
    }

    /// Reads a product's terms from columns `first ..< first + 3`: price, active, stock; with
    /// `asStored`, the price and stock as stored, in range or not.
    static func terms(from row: PostgresRow, at first: Int, sku: String, currency: Currency, asStored: Bool = false) throws
        -> ProductTerms
    {
        func product() -> String { "product '\(DisplayText.clean(sku))'" }
        return ProductTerms(
            price: Money(
                minorUnits: Int64(
                    try row.int(first, in: asStored ? StoredRange.anyInteger : StoredRange.price, "the price of \(product())")),
                currency: currency),
            isActive: try row.bool(first + 1),
            stock: try row.optionalInt(
                first + 2, in: asStored ? StoredRange.anyInteger : StoredRange.stock, "the stock of \(product())"))
    }

    /// The parameters sku, name, price, active, stock.
    static func parameters(of product: Product) -> [PostgresValue] {
        [
            .text(product.sku), .text(product.name), .integer(product.price.minorUnits), .boolean(product.isActive),
            PostgresValue(product.stock),
        ]
    }

    private static let selectProduct = PostgresSQL("SELECT " + productColumns + " FROM products WHERE sku = $1")
    private static let lockProduct = PostgresSQL(selectProduct.text + " FOR NO KEY UPDATE")

    func product(sku: String) throws -> Product? {
        try rows(locks ? Self.lockProduct : Self.selectProduct, [.text(sku)]).first.map { try product(from: $0) }
    }

    // The active column is a boolean: only the price and stock can be out of range.
    func productAsStored(sku: String) throws -> StoredProduct? {
        try rows(locks ? Self.lockProduct : Self.selectProduct, [.text(sku)]).first.map {
            StoredProduct(product: try product(from: $0, asStored: true))
        }
    }

    private static let selectProducts = PostgresSQL("SELECT " + productColumns + " FROM products ORDER BY sku")
    /// In a write unit, no product changes until the unit ends.
    private static let lockProductsTable = PostgresStatement("LOCK TABLE products IN SHARE MODE")

    func products() throws -> [Product] {
        try rows(Self.selectProducts, lock: Self.lockProductsTable).map { try product(from: $0) }
    }

    private static let selectProductPage = PostgresSQL(
        "SELECT " + productColumns + " FROM products WHERE sku > $1 AND (active OR $2) ORDER BY sku LIMIT $3")

    // A range of the primary key, where the default reads the whole catalog. A null limit is
    // none; every SKU sorts after the empty text (the schema keeps SKUs non-empty).
    func products(after: String?, includeInactive: Bool, limit: Int?) throws -> [Product] {
        try rows(
            Self.selectProductPage, [.text(after ?? ""), .boolean(includeInactive), PostgresValue(limit)],
            lock: Self.lockProductsTable
        ).map { try product(from: $0) }
    }

    private static let selectProductsBySKU = PostgresSQL("SELECT " + productColumns + " FROM products WHERE sku = ANY($1::text[]) ORDER BY sku")
    private static let lockProductsBySKU = PostgresSQL(selectProductsBySKU.text + " FOR NO KEY UPDATE")

    // One statement for any number of SKUs; in a write unit it locks them in SKU order.
    func products(skus: [String]) throws -> [Product?] {
        guard !skus.isEmpty else { return [] }
        let sql = locks ? Self.lockProductsBySKU : Self.selectProductsBySKU
        var found: [String: Product] = [:]
        for row in try rows(sql, [PostgresArrayLiteral.texts(skus)]) {
            let product = try product(from: row)
            found[product.sku] = product
        }
        return skus.map { found[$0] }
    }

    private static let countProducts: PostgresSQL = "SELECT count(*) FROM products"

    func productCount() throws -> Int {
        try rows(Self.countProducts, lock: Self.lockProductsTable).first?.int(0) ?? 0
    }

    private static let insertProductSQL = PostgresSQL(
        "INSERT INTO products (" + productColumns + ") VALUES ($1, $2, $3, $4, $5) ON CONFLICT (sku) DO NOTHING")

    func insertProduct(_ product: Product) throws {
        guard try change(Self.insertProductSQL, Self.parameters(of: product)) == 1 else {
            throw PostgresStoreError.alreadyStored("product '\(DisplayText.clean(product.sku))'")
        }
    }

    private static let updateProductSQL: PostgresSQL = "UPDATE products SET name = $2, price = $3, active = $4, stock = $5 WHERE sku = $1"

    func updateProduct(_ product: Product) throws {
        guard try change(Self.updateProductSQL, Self.parameters(of: product)) == 1 else {
            throw PostgresStoreError.notStored("product '\(DisplayText.clean(product.sku))'")
        }
    }

    // A product a line holds is left alone by the statement itself: the foreign key of
    // cart_lines would refuse it too, but a failed statement aborts the whole transaction.
    private static let deleteProductSQL: PostgresSQL =
        "DELETE FROM products WHERE sku = $1 AND NOT EXISTS (SELECT 1 FROM cart_lines WHERE sku = $1)"

    func deleteProduct(sku: String) throws {
        guard try change(Self.deleteProductSQL, [.text(sku)]) == 1 else {
            throw PostgresStoreError.notStored("product '\(DisplayText.clean(sku))' (or a cart line holds it)")
        }
    }

    static let updateStockSQL: PostgresSQL = "UPDATE products SET stock = $2 WHERE sku = $1"

    func updateProductStock(_ product: Product) throws {
        guard try change(Self.updateStockSQL, [.text(product.sku), PostgresValue(product.stock)]) == 1 else {
            throw PostgresStoreError.notStored("product '\(DisplayText.clean(product.sku))'")
        }
    }

    /// Products per statement of `insertAbsentProducts`.
    static let productBatchSize = 1000
    private static let insertAbsentProductsSQL = PostgresSQL("""
        INSERT INTO products (\(productColumns))
        SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::boolean[], $5::bigint[])
        ON CONFLICT (sku) DO NOTHING
        RETURNING sku
        """)

    // A batch in one statement that skips the SKUs already stored and returns those it stored.
    func insertAbsentProducts(_ products: [Product]) throws -> [Bool] {
        var inserted: Set<String> = []
        var start = products.startIndex
        while start < products.endIndex {
            let batch = products[start..<min(start + Self.productBatchSize, products.endIndex)]
            start = batch.endIndex
            let result = try write(
                Self.insertAbsentProductsSQL,
                [
                    PostgresArrayLiteral.texts(batch.map(\.sku)), PostgresArrayLiteral.texts(batch.map(\.name)),
                    PostgresArrayLiteral.integers(batch.map { $0.price.minorUnits }),
                    PostgresArrayLiteral.booleans(batch.map(\.isActive)),
                    PostgresArrayLiteral.integers(batch.map { $0.stock.map(Int64.init) }),
                ])
            for row in result { inserted.insert(try row.string(0)) }
        }
        return products.map { inserted.contains($0.sku) }
    }
}
