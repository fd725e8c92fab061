import CartCore

/// The storage handed to one unit of work of a `SQLiteCartRepository`: plain reads and writes
/// through cached statements, inside the transaction the repository opened.
///
/// Reads in a write unit need no locks of their own: the unit holds SQLite's write lock
/// (`BEGIN IMMEDIATE`), so nothing else changes the file before it commits. Carts are in
/// `SQLiteCartStorage+Carts.swift`, orders in `SQLiteCartStorage+Orders.swift`.
final class SQLiteCartStorage: CartStorageWriter {
    let database: Database
    /// The settings once read or saved in this unit, in which they cannot change: every
    /// product and amount a unit reads is priced in their currency.
    var knownSettings: StoreSettings?

    init(database: Database) {
        self.database = database
    }

    // MARK: Settings

    private static let selectSettings = CachedSQL(
        "SELECT currency, currency_exponent, currency_symbol, max_line_quantity, max_lines_per_cart FROM settings WHERE id = 1"
    )

    func settings() throws -> StoreSettings {
        if let knownSettings { return knownSettings }
        let statement = try database.cached(Self.selectSettings)
        defer { statement.reset() }
        guard try statement.step() else { throw StoredDataError("the store has no settings row") }
        let settings = try Self.settings(from: statement, startingAt: 0)
        knownSettings = settings
        return settings
    }

    /// The settings in columns `first ..< first + 5`: currency, currency_exponent,
    /// currency_symbol, max_line_quantity, max_lines_per_cart.
    static func settings(from statement: Statement, startingAt first: Int32) throws -> StoreSettings {
        let exponent = try statement.int(at: first + 1, in: StoredRange.currencyExponent, "the currency's minor-unit digits")
        let currency = try Currency(
            storedCode: statement.string(at: first), minorUnitExponent: Int64(exponent),
            symbol: statement.optionalString(at: first + 2))
        return StoreSettings(
            currency: currency,
            maxLineQuantity: try statement.int(
                at: first + 3, in: StoredRange.maxLineQuantity, "the maximum line quantity setting"),
            maxLinesPerCart: try statement.int(
                at: first + 4, in: StoredRange.maxLinesPerCart, "the maximum lines per cart setting"))
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
        knownSettings = settings
    }

    // MARK: Products

    /// Reads a product from columns `first ..< first + 5`: sku, name, price, active, stock; with
    /// `asStored`, its price and stock as stored, in range or not.
    func product(from statement: Statement, startingAt first: Int32 = 0, asStored: Bool = false) throws -> Product {
        let sku = try statement.string(at: first)
        let terms = try self.terms(
            from: statement, startingAt: first + 2, sku: sku, currency: try settings().currency, asStored: asStored)
        return Product(
            sku: sku, name: try statement.string(at: first + 1), price: terms.price, isActive: terms.isActive,
            stock: terms.stock)
    }

    /// Reads a product's terms from columns `first ..< first + 3`: price, active, stock; with
    /// `asStored`, the price and stock as stored, in range or not, and active when the flag is 1.
    func terms(
        from statement: Statement, startingAt first: Int32, sku: @autoclosure () -> String, currency: Currency,
        asStored: Bool = false
    ) throws -> ProductTerms {
        ProductTerms(
            price: Money(
                minorUnits: Int64(
                    try statement.int(
                        at: first, in: asStored ? StoredRange.anyInteger : StoredRange.price, "the price of product '\(clean(sku()))'")),
                currency: currency),
            isActive: asStored
                ? try statement.int(at: first + 1, in: StoredRange.anyInteger, "the active flag of product '\(clean(sku()))'") == 1
                : try statement.bool(at: first + 1, "the active flag of product '\(clean(sku()))'"),
            stock: try statement.optionalInt(
                at: first + 2, in: asStored ? StoredRange.anyInteger : StoredRange.stock, "the stock of product '\(clean(sku()))'"))
    }

    /// Stored text as a message quotes it.
    func clean(_ text: String) -> String { DisplayText.clean(text) }

    /// A count SQLite computed, as an `Int`.
    func count(_ sql: CachedSQL, of what: String) throws -> Int {
        try StoredDataError.checked(try database.scalar(sql) ?? 0, in: 0...Int64.max, "the number of \(what)")
    }

    private static let selectProduct = CachedSQL("SELECT sku, name, price, active, stock FROM products WHERE sku = ?")

    func product(sku: String) throws -> Product? {
        let statement = try database.cached(Self.selectProduct)
        defer { statement.reset() }
        try statement.bind(sku, at: 1)
        return try statement.step() ? product(from: statement) : nil
    }

    func productAsStored(sku: String) throws -> StoredProduct? {
        let statement = try database.cached(Self.selectProduct)
        defer { statement.reset() }
        try statement.bind(sku, at: 1)
        guard try statement.step() else { return nil }
        return StoredProduct(
            product: try product(from: statement, asStored: true),
            activeFlag: Int64(try statement.int(at: 3, in: StoredRange.anyInteger, "the active flag of product '\(clean(sku))'")))
    }

    private static let selectProducts = CachedSQL("SELECT sku, name, price, active, stock FROM products ORDER BY sku")

    func products() throws -> [Product] {
        let statement = try database.cached(Self.selectProducts)
        defer { statement.reset() }
        var products: [Product] = []
        while try statement.step() { products.append(try product(from: statement)) }
        return products
    }

    private static let selectProductPage = CachedSQL(
        "SELECT sku, name, price, active, stock FROM products WHERE sku > ? AND (active OR ?) ORDER BY sku LIMIT ?")

    // A range of the primary key, where the default reads the whole catalog.
    func products(after: String?, includeInactive: Bool, limit: Int?) throws -> [Product] {
        let statement = try database.cached(Self.selectProductPage)
        defer { statement.reset() }
        // Every SKU sorts after the empty text (the schema keeps SKUs non-empty); a negative
        // limit is none.
        try statement.bind(after ?? "", at: 1)
        try statement.bind(includeInactive, at: 2)
        try statement.bind(limit ?? -1, at: 3)
        var products: [Product] = []
        while try statement.step() { products.append(try product(from: statement)) }
        return products
    }

    private static let countProducts = CachedSQL("SELECT count(*) FROM products")

    func productCount() throws -> Int {
        try count(Self.countProducts, of: "products")
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

    private static let deleteProductSQL = CachedSQL("DELETE FROM products WHERE sku = ?")

    // The foreign key of cart_lines refuses the delete of a product a line holds.
    func deleteProduct(sku: String) throws {
        let statement = try database.cached(Self.deleteProductSQL)
        try statement.bind(sku, at: 1)
        try statement.run()
        try database.requireOneRowChanged(Self.deleteProductSQL, key: sku)
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

    /// Products per multi-row statement: 320 parameters, far below SQLite's limit (32,766).
    static let productBatchSize = 64
    private static let insertAbsentProductBatchSQL = CachedSQL(
        "INSERT INTO products (sku, name, price, active, stock) VALUES "
            + repeatElement("(?, ?, ?, ?, ?)", count: productBatchSize).joined(separator: ", ")
            + " ON CONFLICT (sku) DO NOTHING")
    private static let savepoint = CachedSQL("SAVEPOINT absent_products")
    private static let releaseSavepoint = CachedSQL("RELEASE absent_products")
    private static let rollBackToSavepoint = CachedSQL("ROLLBACK TO absent_products")

    // A full batch goes in as one multi-row INSERT that skips SKUs already stored: a
    // statement's start and end cost more than a row's insert. When it inserted every row,
    // every product was absent; otherwise it is undone to a savepoint and the batch goes one
    // product at a time, which tells which were absent. The rest go one by one.
    func insertAbsentProducts(_ products: [Product]) throws -> [Bool] {
        var inserted: [Bool] = []
        inserted.reserveCapacity(products.count)
        var start = products.startIndex
        while products.endIndex - start >= Self.productBatchSize {
            let batch = products[start..<start + Self.productBatchSize]
            start = batch.endIndex
            try database.cached(Self.savepoint).run()
            let statement = try database.cached(Self.insertAbsentProductBatchSQL)
            for (offset, product) in batch.enumerated() { try bind(product, to: statement, from: Int32(offset * 5 + 1)) }
            try statement.run()
            if database.changes == batch.count {
                try database.cached(Self.releaseSavepoint).run()
                inserted += repeatElement(true, count: batch.count)
            } else {
                try database.cached(Self.rollBackToSavepoint).run()
                try database.cached(Self.releaseSavepoint).run()
                inserted += try batch.map(insertIfAbsent)
            }
        }
        inserted += try products[start...].map(insertIfAbsent)
        return inserted
    }

    /// Inserts the product unless its SKU is stored; whether it did.
    private func insertIfAbsent(_ product: Product) throws -> Bool {
        guard try self.product(sku: product.sku) == nil else { return false }
        try insertProduct(product)
        return true
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
