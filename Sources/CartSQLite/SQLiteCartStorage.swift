import CartCore

/// The storage handed to one unit of work of a `SQLiteCartRepository`: plain reads and writes
/// through cached statements, inside the transaction the repository opened.
///
/// Reads in a write unit need no locks of their own: the unit holds SQLite's write lock
/// (`BEGIN IMMEDIATE`), so nothing else changes the file before it commits. Each call runs the
/// same statements whatever came before it. Carts are in `SQLiteCartStorage+Carts.swift`,
/// orders in `SQLiteCartStorage+Orders.swift`.
final class SQLiteCartStorage: CartStorageWriter {
    let database: Database
    private let settingsCache: SettingsCache

    init(database: Database, settingsCache: SettingsCache) {
        self.database = database
        self.settingsCache = settingsCache
    }

    // MARK: Settings

    private static let selectSettings = CachedSQL(
        "SELECT currency, currency_exponent, currency_symbol, max_line_quantity, max_lines_per_cart FROM settings WHERE id = 1"
    )

    func settings() throws -> StoreSettings {
        try settingsCache.settings(in: database, read: readSettings)
    }

    private func readSettings() throws -> StoreSettings {
        let statement = try database.cached(Self.selectSettings)
        defer { statement.reset() }
        guard try statement.step() else {
            throw DatabaseError(extendedResultCode: 1, message: "the settings row is missing", sql: statement.sql)
        }
        let code = statement.string(at: 0)
        let currency =
            try (try? Currency(code: code))
            ?? (Currency(
                code: code, minorUnitExponent: statement.int(at: 1), symbol: statement.optionalString(at: 2)))
        return StoreSettings(
            currency: currency, maxLineQuantity: statement.int(at: 3), maxLinesPerCart: statement.int(at: 4))
    }

    private static let saveSettingsSQL = CachedSQL(
        """
        INSERT INTO settings (id, currency, currency_exponent, currency_symbol, max_line_quantity, max_lines_per_cart)
        VALUES (1, ?, ?, ?, ?, ?)
        ON CONFLICT (id) DO UPDATE SET
            currency = excluded.currency, currency_exponent = excluded.currency_exponent,
            currency_symbol = excluded.currency_symbol, max_line_quantity = excluded.max_line_quantity,
            max_lines_per_cart = excluded.max_lines_per_cart
        """)

    func saveSettings(_ settings: StoreSettings) throws {
        let statement = try database.cached(Self.saveSettingsSQL)
        try statement.bind(settings.currency.code, at: 1)
        try statement.bind(settings.currency.minorUnitExponent, at: 2)
        try statement.bind(settings.currency.symbol, at: 3)
        try statement.bind(settings.maxLineQuantity, at: 4)
        try statement.bind(settings.maxLinesPerCart, at: 5)
        try statement.run()
        settingsCache.saved(settings, in: database)
    }

    func money(_ minorUnits: Int64) throws -> Money {
        Money(minorUnits: minorUnits, currency: try settings().currency)
    }

    // MARK: Products

    /// Reads a product from columns `first ..< first + 5`: sku, name, price, active, stock.
    func product(from statement: Statement, startingAt first: Int32 = 0) throws -> Product {
        Product(
            sku: statement.string(at: first), name: statement.string(at: first + 1),
            price: try money(statement.int64(at: first + 2)), isActive: statement.bool(at: first + 3),
            stock: statement.optionalInt(at: first + 4))
    }

    private static let selectProduct = CachedSQL("SELECT sku, name, price, active, stock FROM products WHERE sku = ?")

    func product(sku: String) throws -> Product? {
        let statement = try database.cached(Self.selectProduct)
        defer { statement.reset() }
        try statement.bind(sku, at: 1)
        return try statement.step() ? product(from: statement) : nil
    }

    private static let selectProducts = CachedSQL("SELECT sku, name, price, active, stock FROM products ORDER BY sku")

    func products() throws -> [Product] {
        let statement = try database.cached(Self.selectProducts)
        defer { statement.reset() }
        var products: [Product] = []
        while try statement.step() { products.append(try product(from: statement)) }
        return products
    }

    private static let countProducts = CachedSQL("SELECT count(*) FROM products")

    func productCount() throws -> Int {
        Int(try database.scalar(Self.countProducts) ?? 0)
    }

    private static let insertProductSQL = CachedSQL(
        "INSERT INTO products (sku, name, price, active, stock) VALUES (?1, ?2, ?3, ?4, ?5)")

    func insertProduct(_ product: Product) throws {
        let statement = try database.cached(Self.insertProductSQL)
        try bind(product, to: statement, from: 1)
        try statement.run()
    }

    private static let updateProductSQL = CachedSQL(
        "UPDATE products SET name = ?2, price = ?3, active = ?4, stock = ?5 WHERE sku = ?1")

    func updateProduct(_ product: Product) throws {
        let statement = try database.cached(Self.updateProductSQL)
        try bind(product, to: statement, from: 1)
        try statement.run()
        try database.requireOneRowChanged(Self.updateProductSQL, key: product.sku)
    }

    private static let updateStockSQL = CachedSQL("UPDATE products SET stock = ?2 WHERE sku = ?1")

    // An UPDATE of the stock column runs only that column's CHECK; the whole-row UPDATE runs
    // every CHECK of the row.
    func updateProductStock(_ product: Product) throws {
        let statement = try database.cached(Self.updateStockSQL)
        try statement.bind(product.sku, at: 1)
        try statement.bind(product.stock, at: 2)
        try statement.run()
        try database.requireOneRowChanged(Self.updateStockSQL, key: product.sku)
    }

    /// Products per multi-row insert: 320 parameters, far below SQLite's limit (32,766).
    static let productBatchSize = 64
    private static let insertProductBatchSQL = CachedSQL(
        "INSERT INTO products (sku, name, price, active, stock) VALUES "
            + repeatElement("(?, ?, ?, ?, ?)", count: productBatchSize).joined(separator: ", "))

    // Full batches of new products go in as one multi-row INSERT each: a statement's start and
    // end cost more than a row's insert. The rest go one by one.
    func insertProducts(_ products: [Product]) throws {
        var start = products.startIndex
        while products.endIndex - start >= Self.productBatchSize {
            let statement = try database.cached(Self.insertProductBatchSQL)
            for offset in 0..<Self.productBatchSize {
                try bind(products[start + offset], to: statement, from: Int32(offset * 5 + 1))
            }
            try statement.run()
            start += Self.productBatchSize
        }
        for product in products[start...] { try insertProduct(product) }
    }

    /// Binds sku, name, price, active, stock to the five parameters from `first`.
    private func bind(_ product: Product, to statement: Statement, from first: Int32) throws {
        try statement.bind(product.sku, at: first)
        try statement.bind(product.name, at: first + 1)
        try statement.bind(product.price.minorUnits, at: first + 2)
        try statement.bind(product.isActive, at: first + 3)
        try statement.bind(product.stock, at: first + 4)
    }
}
