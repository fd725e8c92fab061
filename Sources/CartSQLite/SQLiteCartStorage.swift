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
    private var cachedSettings: StoreSettings?

    init(database: Database) {
        self.database = database
    }

    // MARK: Settings

    func settings() throws -> StoreSettings {
        if let cachedSettings { return cachedSettings }
        let statement = try database.cached(
            "SELECT currency, currency_exponent, currency_symbol, max_line_quantity, max_lines_per_cart FROM settings WHERE id = 1"
        )
        defer { statement.reset() }
        guard try statement.step() else {
            throw DatabaseError(extendedResultCode: 1, message: "the settings row is missing", sql: statement.sql)
        }
        let code = statement.string(at: 0)
        let currency =
            try (try? Currency(code: code))
            ?? (Currency(
                code: code, minorUnitExponent: statement.int(at: 1), symbol: statement.optionalString(at: 2)))
        let settings = StoreSettings(
            currency: currency, maxLineQuantity: statement.int(at: 3), maxLinesPerCart: statement.int(at: 4))
        cachedSettings = settings
        return settings
    }

    func saveSettings(_ settings: StoreSettings) throws {
        let statement = try database.cached(
            """
            INSERT INTO settings (id, currency, currency_exponent, currency_symbol, max_line_quantity, max_lines_per_cart)
            VALUES (1, ?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET
                currency = excluded.currency, currency_exponent = excluded.currency_exponent,
                currency_symbol = excluded.currency_symbol, max_line_quantity = excluded.max_line_quantity,
                max_lines_per_cart = excluded.max_lines_per_cart
            """)
        try statement.bind(settings.currency.code, at: 1)
        try statement.bind(settings.currency.minorUnitExponent, at: 2)
        try statement.bind(settings.currency.symbol, at: 3)
        try statement.bind(settings.maxLineQuantity, at: 4)
        try statement.bind(settings.maxLinesPerCart, at: 5)
        try statement.run()
        cachedSettings = settings
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

    func product(sku: String) throws -> Product? {
        let statement = try database.cached("SELECT sku, name, price, active, stock FROM products WHERE sku = ?")
        defer { statement.reset() }
        try statement.bind(sku, at: 1)
        return try statement.step() ? product(from: statement) : nil
    }

    func lockProduct(sku: String) throws -> Product? { try product(sku: sku) }

    func products(includeInactive: Bool) throws -> [Product] {
        let statement = try database.cached(
            "SELECT sku, name, price, active, stock FROM products WHERE active = 1 OR ? ORDER BY sku")
        defer { statement.reset() }
        try statement.bind(includeInactive, at: 1)
        var products: [Product] = []
        while try statement.step() { products.append(try product(from: statement)) }
        return products
    }

    func productCount() throws -> Int {
        Int(try database.scalar("SELECT count(*) FROM products") ?? 0)
    }

    func saveProduct(_ product: Product) throws {
        let statement = try database.cached(
            """
            INSERT INTO products (sku, name, price, active, stock) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (sku) DO UPDATE SET
                name = excluded.name, price = excluded.price, active = excluded.active, stock = excluded.stock
            """)
        try statement.bind(product.sku, at: 1)
        try statement.bind(product.name, at: 2)
        try statement.bind(product.price.minorUnits, at: 3)
        try statement.bind(product.isActive, at: 4)
        try statement.bind(product.stock, at: 5)
        try statement.run()
    }

    // MARK: Carts

    func cartHeader(id: String) throws -> CartHeader? {
        let statement = try database.cached("SELECT version, updated_at FROM carts WHERE id = ?")
        defer { statement.reset() }
        try statement.bind(id, at: 1)
        guard try statement.step() else { return nil }
        return CartHeader(
            id: id, version: statement.int(at: 0), updatedAt: UTCCalendar.date(milliseconds: statement.int64(at: 1)))
    }

    func lockCart(id: String) throws -> CartHeader? { try cartHeader(id: id) }

    func saveCartHeader(_ header: CartHeader) throws {
        let statement = try database.cached(
            """
            INSERT INTO carts (id, version, updated_at) VALUES (?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET version = excluded.version, updated_at = excluded.updated_at
            """)
        try statement.bind(header.id, at: 1)
        try statement.bind(header.version, at: 2)
        try statement.bind(UTCCalendar.milliseconds(header.updatedAt), at: 3)
        try statement.run()
    }

    func cartLines(cartID: String) throws -> [StoredCartLine] {
        let statement = try database.cached(
            """
            SELECT l.quantity, p.sku, p.name, p.price, p.active, p.stock
            FROM cart_lines AS l JOIN products AS p ON p.sku = l.sku
            WHERE l.cart_id = ?
            ORDER BY l.position
            """)
        defer { statement.reset() }
        try statement.bind(cartID, at: 1)
        var lines: [StoredCartLine] = []
        while try statement.step() {
            lines.append(StoredCartLine(quantity: statement.int(at: 0), product: try product(from: statement, startingAt: 1)))
        }
        return lines
    }

    func lockCartLines(cartID: String) throws -> [StoredCartLine] { try cartLines(cartID: cartID) }

    func cartLineQuantity(cartID: String, sku: String) throws -> Int? {
        let statement = try database.cached("SELECT quantity FROM cart_lines WHERE cart_id = ? AND sku = ?")
        defer { statement.reset() }
        try statement.bind(cartID, at: 1)
        try statement.bind(sku, at: 2)
        return try statement.step() ? statement.int(at: 0) : nil
    }

    func cartLineCount(cartID: String) throws -> Int {
        let statement = try database.cached("SELECT count(*) FROM cart_lines WHERE cart_id = ?")
        defer { statement.reset() }
        try statement.bind(cartID, at: 1)
        return try statement.step() ? statement.int(at: 0) : 0
    }

    func setCartLine(cartID: String, sku: String, quantity: Int) throws {
        let statement = try database.cached(
            """
            INSERT INTO cart_lines (cart_id, sku, quantity, position)
            VALUES (?1, ?2, ?3, (SELECT coalesce(max(position), 0) + 1 FROM cart_lines WHERE cart_id = ?1))
            ON CONFLICT (cart_id, sku) DO UPDATE SET quantity = excluded.quantity
            """)
        try statement.bind(cartID, at: 1)
        try statement.bind(sku, at: 2)
        try statement.bind(quantity, at: 3)
        try statement.run()
    }

    func deleteCartLine(cartID: String, sku: String) throws {
        let statement = try database.cached("DELETE FROM cart_lines WHERE cart_id = ? AND sku = ?")
        try statement.bind(cartID, at: 1)
        try statement.bind(sku, at: 2)
        try statement.run()
    }

    func deleteCartLines(cartID: String) throws {
        let statement = try database.cached("DELETE FROM cart_lines WHERE cart_id = ?")
        try statement.bind(cartID, at: 1)
        try statement.run()
    }

    func carts() throws -> [CartSummary] {
        let statement = try database.cached(
            """
            SELECT c.id, c.version, c.updated_at, count(l.sku), coalesce(sum(l.quantity), 0)
            FROM carts AS c LEFT JOIN cart_lines AS l ON l.cart_id = c.id
            GROUP BY c.id
            ORDER BY c.id
            """)
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

    func cartCount() throws -> Int {
        Int(try database.scalar("SELECT count(*) FROM carts") ?? 0)
    }

    func deleteCarts(updatedBefore instant: Date) throws -> Int {
        let statement = try database.cached("DELETE FROM carts WHERE updated_at < ?")
        try statement.bind(UTCCalendar.milliseconds(instant), at: 1)
        try statement.run()
        return database.changes
    }
}
