#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CartCore

/// The storage handed to one unit of work of a `SQLiteCartRepository`: plain reads and writes
/// through cached statements, inside the transaction the repository opened.
///
/// `lockCart`, `lockProduct` and `lockCartLines` are plain reads here: the unit already holds
/// SQLite's write lock (`BEGIN IMMEDIATE`), so nothing else can change the rows before commit.
/// The repository calls `finish()` before it commits a unit. Cart operations are in
/// `SQLiteCartStorage+Carts.swift`, orders in `SQLiteCartStorage+Orders.swift`.
final class SQLiteCartStorage: CartStorageWriter {
    let database: Database
    /// The settings for the rest of this unit, once read (only this unit can change them).
    private var cachedSettings: StoreSettings?
    /// What `lockCartLine` learned about the line it read, so that `setCartLine` on that line
    /// writes it with one plain statement: whether the line exists. Any other write to cart
    /// lines forgets it.
    var lockedLine: (cartID: String, sku: String, exists: Bool)?
    /// The cart whose lines `lockCartLines` read last, and their SKUs, so that
    /// `deleteCartLines` of that cart deletes each line by its primary key. Any other write to
    /// cart lines forgets it.
    var lockedLines: (cartID: String, skus: [String])?
    /// The `carts` rows this unit has read or changed, with their line summaries as the unit's
    /// line changes left them (see `CartRowState`); rarely more than two, so a list.
    var cartRows: [CartRowState] = []

    init(database: Database) {
        self.database = database
    }

    // MARK: Settings

    private static let selectSettings = CachedSQL(
        "SELECT currency, currency_exponent, currency_symbol, max_line_quantity, max_lines_per_cart FROM settings WHERE id = 1"
    )

    /// The settings, from this unit's copy, the connection's copy (while the file has not
    /// changed), or the settings row.
    func settings() throws -> StoreSettings {
        if let cachedSettings { return cachedSettings }
        let settings = try database.settings(read: readSettings)
        cachedSettings = settings
        return settings
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
        cachedSettings = settings
        database.didSaveSettings(settings)
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

    func lockProduct(sku: String) throws -> Product? { try product(sku: sku) }

    private static let selectProducts = CachedSQL("SELECT sku, name, price, active, stock FROM products WHERE active = 1 OR ? ORDER BY sku")

    func products(includeInactive: Bool) throws -> [Product] {
        let statement = try database.cached(Self.selectProducts)
        defer { statement.reset() }
        try statement.bind(includeInactive, at: 1)
        var products: [Product] = []
        while try statement.step() { products.append(try product(from: statement)) }
        return products
    }

    private static let countProducts = CachedSQL("SELECT count(*) FROM products")

    func productCount() throws -> Int {
        Int(try database.scalar(Self.countProducts) ?? 0)
    }

    private static let saveProductSQL = CachedSQL(
        """
        INSERT INTO products (sku, name, price, active, stock) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT (sku) DO UPDATE SET
            name = excluded.name, price = excluded.price, active = excluded.active, stock = excluded.stock
        """)

    func saveProduct(_ product: Product) throws {
        _ = try write(product, with: Self.saveProductSQL)
    }

    private static let saveStockSQL = CachedSQL("UPDATE products SET stock = ?2 WHERE sku = ?1")

    // Checkout's stock decrements: the whole-row upsert re-ran every CHECK of the row (the
    // SKU's GLOB and trims among them); an UPDATE of stock alone runs only stock's.
    func saveStock(sku: String, stock: Int?) throws {
        let statement = try database.cached(Self.saveStockSQL)
        try statement.bind(sku, at: 1)
        try statement.bind(stock, at: 2)
        try statement.run()
        try database.requireOneRowChanged(Self.saveStockSQL, key: sku)
    }

    private static let insertNewProductSQL = CachedSQL(
        "INSERT INTO products (sku, name, price, active, stock) VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (sku) DO NOTHING")
    private static let updateChangedProductSQL = CachedSQL(
        """
        UPDATE products SET name = ?2, price = ?3, active = ?4, stock = ?5
        WHERE sku = ?1 AND (name IS NOT ?2 OR price IS NOT ?3 OR active IS NOT ?4 OR stock IS NOT ?5)
        """)

    // An insert that does nothing on a taken SKU, then, only then, an update that does nothing
    // when every column already holds the value: one statement per new product, where reading
    // the product first cost a second one.
    func upsertProduct(_ product: Product) throws -> ProductChange {
        if try write(product, with: Self.insertNewProductSQL) { return .created }
        return try write(product, with: Self.updateChangedProductSQL) ? .updated : .unchanged
    }

    /// Products per multi-row insert: 320 parameters, far below SQLite's limit (32,766).
    static let productBatchSize = 64
    private static let insertNewProductBatchSQL = CachedSQL(
        "INSERT INTO products (sku, name, price, active, stock) VALUES "
            + repeatElement("(?, ?, ?, ?, ?)", count: productBatchSize).joined(separator: ", ")
            + " ON CONFLICT (sku) DO NOTHING")

    // Each full batch of products goes in as one multi-row insert that skips taken SKUs: a
    // statement's start and end cost more than a row's insert. When the batch inserted every
    // row, each was new; otherwise the conditional update runs for each of its products, which
    // changes nothing for those the batch has just inserted (and stores a repeated SKU's
    // later product, as upsertProduct in order would). The tail goes through upsertProduct.
    func upsertProducts(_ products: [Product]) throws -> ProductUpsertCounts {
        var counts = ProductUpsertCounts()
        var start = products.startIndex
        while products.endIndex - start >= Self.productBatchSize {
            let batch = products[start..<start + Self.productBatchSize]
            start = batch.endIndex
            let statement = try database.cached(Self.insertNewProductBatchSQL)
            for (offset, index) in batch.indices.enumerated() {
                try bind(products[index], to: statement, from: Int32(offset * 5 + 1))
            }
            try statement.run()
            let inserted = database.changes
            counts.created += inserted
            guard inserted < batch.count else { continue }
            for index in batch.indices where try write(products[index], with: Self.updateChangedProductSQL) {
                counts.updated += 1
            }
        }
        for index in start..<products.endIndex { counts.count(try upsertProduct(products[index])) }
        return counts
    }

    /// Runs a product statement binding sku, name, price, active, stock as ?1…?5; whether it
    /// changed a row.
    private func write(_ product: Product, with sql: CachedSQL) throws -> Bool {
        let statement = try database.cached(sql)
        try bind(product, to: statement, from: 1)
        try statement.run()
        return database.changes > 0
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
