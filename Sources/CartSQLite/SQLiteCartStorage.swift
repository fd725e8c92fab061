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
final class SQLiteCartStorage: CartStorageWriter {
    let database: Database
    /// The settings for the rest of this unit, once read (only this unit can change them).
    private var cachedSettings: StoreSettings?
    /// What `lockCartLine` learned about the line it read, so that `setCartLine` on that line
    /// writes it with one plain statement: `newPosition` is `nil` when the line exists, else
    /// the position a new line takes. Any other write to cart lines forgets it.
    private var lockedLine: (cartID: String, sku: String, newPosition: Int?)?

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

    /// Runs a product statement binding sku, name, price, active, stock as ?1…?5; whether it
    /// changed a row.
    private func write(_ product: Product, with sql: CachedSQL) throws -> Bool {
        let statement = try database.cached(sql)
        try statement.bind(product.sku, at: 1)
        try statement.bind(product.name, at: 2)
        try statement.bind(product.price.minorUnits, at: 3)
        try statement.bind(product.isActive, at: 4)
        try statement.bind(product.stock, at: 5)
        try statement.run()
        return database.changes > 0
    }

    // MARK: Carts

    private static let selectCartHeader = CachedSQL("SELECT version, updated_at FROM carts WHERE id = ?")

    func cartHeader(id: String) throws -> CartHeader? {
        let statement = try database.cached(Self.selectCartHeader)
        defer { statement.reset() }
        try statement.bind(id, at: 1)
        guard try statement.step() else { return nil }
        return CartHeader(
            id: id, version: statement.int(at: 0), updatedAt: UTCCalendar.date(milliseconds: statement.int64(at: 1)))
    }

    func lockCart(id: String) throws -> CartHeader? { try cartHeader(id: id) }

    private static let saveCartHeaderSQL = CachedSQL(
        """
        INSERT INTO carts (id, version, updated_at) VALUES (?, ?, ?)
        ON CONFLICT (id) DO UPDATE SET version = excluded.version, updated_at = excluded.updated_at
        """)

    func saveCartHeader(_ header: CartHeader) throws {
        let statement = try database.cached(Self.saveCartHeaderSQL)
        try statement.bind(header.id, at: 1)
        try statement.bind(header.version, at: 2)
        try statement.bind(UTCCalendar.milliseconds(header.updatedAt), at: 3)
        try statement.run()
    }

    private static let selectCartLines = CachedSQL(
        """
        SELECT l.quantity, p.sku, p.name, p.price, p.active, p.stock
        FROM cart_lines AS l JOIN products AS p ON p.sku = l.sku
        WHERE l.cart_id = ?
        ORDER BY l.position
        """)

    func cartLines(cartID: String) throws -> [StoredCartLine] {
        let statement = try database.cached(Self.selectCartLines)
        defer { statement.reset() }
        try statement.bind(cartID, at: 1)
        var lines: [StoredCartLine] = []
        while try statement.step() {
            lines.append(StoredCartLine(quantity: statement.int(at: 0), product: try product(from: statement, startingAt: 1)))
        }
        return lines
    }

    func lockCartLines(cartID: String) throws -> [StoredCartLine] { try cartLines(cartID: cartID) }

    private static let selectLineQuantity = CachedSQL("SELECT quantity FROM cart_lines WHERE cart_id = ? AND sku = ?")

    func cartLineQuantity(cartID: String, sku: String) throws -> Int? {
        let statement = try database.cached(Self.selectLineQuantity)
        defer { statement.reset() }
        try statement.bind(cartID, at: 1)
        try statement.bind(sku, at: 2)
        return try statement.step() ? statement.int(at: 0) : nil
    }

    private static let countCartLines = CachedSQL("SELECT count(*) FROM cart_lines WHERE cart_id = ?")

    func cartLineCount(cartID: String) throws -> Int {
        let statement = try database.cached(Self.countCartLines)
        defer { statement.reset() }
        try statement.bind(cartID, at: 1)
        return try statement.step() ? statement.int(at: 0) : 0
    }

    private static let setCartLineSQL = CachedSQL(
        """
        INSERT INTO cart_lines (cart_id, sku, quantity, position)
        VALUES (?1, ?2, ?3, (SELECT coalesce(max(position), 0) + 1 FROM cart_lines WHERE cart_id = ?1))
        ON CONFLICT (cart_id, sku) DO UPDATE SET quantity = excluded.quantity
        """)

    private static let insertCartLineSQL = CachedSQL(
        "INSERT INTO cart_lines (cart_id, sku, quantity, position) VALUES (?1, ?2, ?3, ?4)")
    private static let updateCartLineSQL = CachedSQL(
        "UPDATE cart_lines SET quantity = ?3 WHERE cart_id = ?1 AND sku = ?2")

    func setCartLine(cartID: String, sku: String, quantity: Int) throws {
        let locked = lockedLine
        lockedLine = nil
        let statement: Statement
        if let locked, locked.cartID == cartID, locked.sku == sku {
            statement = try database.cached(locked.newPosition == nil ? Self.updateCartLineSQL : Self.insertCartLineSQL)
            if let position = locked.newPosition { try statement.bind(position, at: 4) }
        } else {
            statement = try database.cached(Self.setCartLineSQL)
        }
        try statement.bind(cartID, at: 1)
        try statement.bind(sku, at: 2)
        try statement.bind(quantity, at: 3)
        try statement.run()
    }

    // One statement instead of four (header, product, line, line count). The line count and
    // the highest position come from one scan of the cart's lines, only when the line is new
    // (the CASE skips the subquery otherwise), packed as count × 2³² + position: positions
    // are handed out one by one, so they stay far below 2³².
    private static let lockCartLineSQL = CachedSQL(
        """
        SELECT c.version, c.updated_at, p.name, p.price, p.active, p.stock, l.quantity,
            CASE WHEN l.quantity IS NULL THEN
                (SELECT count(*) * 4294967296 + coalesce(max(position), 0) FROM cart_lines WHERE cart_id = ?1)
            END
        FROM (SELECT 1)
            LEFT JOIN carts AS c ON c.id = ?1
            LEFT JOIN products AS p ON p.sku = ?2
            LEFT JOIN cart_lines AS l ON l.cart_id = ?1 AND l.sku = ?2
        """)

    func lockCartLine(cartID: String, sku: String) throws -> CartLineContext {
        let statement = try database.cached(Self.lockCartLineSQL)
        defer { statement.reset() }
        try statement.bind(cartID, at: 1)
        try statement.bind(sku, at: 2)
        guard try statement.step() else { throw database.lastError(sql: statement.sql) }
        let header =
            statement.isNull(at: 0)
            ? nil
            : CartHeader(
                id: cartID, version: statement.int(at: 0), updatedAt: UTCCalendar.date(milliseconds: statement.int64(at: 1)))
        let product =
            statement.isNull(at: 2)
            ? nil
            : Product(
                sku: sku, name: statement.string(at: 2), price: try money(statement.int64(at: 3)),
                isActive: statement.bool(at: 4), stock: statement.optionalInt(at: 5))
        let quantity = statement.optionalInt(at: 6)
        var lineCount = 0
        if quantity == nil {
            let packed = statement.int64(at: 7)
            lineCount = Int(packed >> 32)
            lockedLine = (cartID, sku, Int(packed & 0xFFFF_FFFF) + 1)
        } else {
            lockedLine = (cartID, sku, nil)
        }
        return CartLineContext(header: header, product: product, quantity: quantity, lineCount: lineCount)
    }

    private static let deleteCartLineSQL = CachedSQL("DELETE FROM cart_lines WHERE cart_id = ? AND sku = ?")

    func deleteCartLine(cartID: String, sku: String) throws {
        lockedLine = nil
        let statement = try database.cached(Self.deleteCartLineSQL)
        try statement.bind(cartID, at: 1)
        try statement.bind(sku, at: 2)
        try statement.run()
    }

    private static let deleteCartLinesSQL = CachedSQL("DELETE FROM cart_lines WHERE cart_id = ?")

    func deleteCartLines(cartID: String) throws {
        lockedLine = nil
        let statement = try database.cached(Self.deleteCartLinesSQL)
        try statement.bind(cartID, at: 1)
        try statement.run()
    }

    private static let selectCarts = CachedSQL(
        """
        SELECT c.id, c.version, c.updated_at, count(l.sku), coalesce(sum(l.quantity), 0)
        FROM carts AS c LEFT JOIN cart_lines AS l ON l.cart_id = c.id
        GROUP BY c.id
        ORDER BY c.id
        """)

    func carts() throws -> [CartSummary] {
        let statement = try database.cached(Self.selectCarts)
        defer { statement.reset() }
        var carts: [CartSummary] = []
        while try statement.step() {
            carts.append(
                CartSummary(
                    id: statement.string(at: 0), lineCount: statement.int(at: 3), totalItems: statement.int(at: 4),
                    version: statement.int(at: 1), updatedAt: UTCCalendar.date(milliseconds: statement.int64(at: 2))))
        }
        return carts
    }

    private static let countCarts = CachedSQL("SELECT count(*) FROM carts")

    func cartCount() throws -> Int {
        Int(try database.scalar(Self.countCarts) ?? 0)
    }

    private static let deleteCartsSQL = CachedSQL("DELETE FROM carts WHERE updated_at < ?")

    func deleteCarts(updatedBefore instant: Date) throws -> Int {
        lockedLine = nil
        let statement = try database.cached(Self.deleteCartsSQL)
        try statement.bind(UTCCalendar.milliseconds(instant), at: 1)
        try statement.run()
        return database.changes
    }
}
