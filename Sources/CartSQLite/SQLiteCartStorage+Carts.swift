#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CartCore
import CSQLite

/// Carts and their lines.
extension SQLiteCartStorage {
    private static let selectCartHeader = CachedSQL(
        "SELECT version, updated_at, line_count, next_position FROM carts WHERE id = ?")

    func cartHeader(id: String) throws -> CartHeader? {
        let statement = try database.cached(Self.selectCartHeader)
        defer { statement.reset() }
        try statement.bind(id, at: 1)
        guard try statement.step() else { return nil }
        // A function, not a string: the messages are built only for a value that is refused.
        func cart() -> String { "cart '\(clean(id))'" }
        return CartHeader(
            id: id, version: try statement.int(at: 0, in: StoredRange.version, "the version of \(cart())"),
            updatedAt: try instant(from: statement, at: 1, "the time \(cart()) last changed"),
            lineCount: try statement.int(at: 2, in: StoredRange.lineCount, "the line count of \(cart())"),
            nextLinePosition: try statement.int(at: 3, in: StoredRange.position, "the next line position of \(cart())"))
    }

    /// The stored instant in `column`, which must lie in `StoredRange.instant`.
    func instant(from statement: Statement, at column: Int32, _ what: @autoclosure () -> String) throws -> Date {
        UTCCalendar.date(milliseconds: Int64(try statement.int(at: column, in: StoredRange.instant, what())))
    }

    private static let insertCartSQL = CachedSQL(
        "INSERT INTO carts (id, version, updated_at, line_count, next_position) VALUES (?1, ?2, ?3, ?4, ?5)")
    private static let updateCartSQL = CachedSQL(
        "UPDATE carts SET version = ?2, updated_at = ?3, line_count = ?4, next_position = ?5 WHERE id = ?1 AND version = ?6")

    // A plain UPDATE of a row the unit has read: an upsert runs the INSERT's CHECKs (the ID's
    // among them) before it finds the conflict. The UPDATE replaces only the version the unit
    // read, so a header at another version is refused, not overwritten.
    func saveCartHeader(_ header: CartHeader, previousVersion: Int?) throws {
        let sql = previousVersion == nil ? Self.insertCartSQL : Self.updateCartSQL
        let statement = try database.cached(sql)
        try statement.bind(header.id, at: 1)
        try statement.bind(header.version, at: 2)
        try statement.bind(UTCCalendar.milliseconds(header.updatedAt), at: 3)
        try statement.bind(header.lineCount, at: 4)
        try statement.bind(header.nextLinePosition, at: 5)
        guard let previousVersion else { return try statement.run() }
        try statement.bind(previousVersion, at: 6)
        try statement.run()
        guard database.changes == 1 else {
            throw DatabaseError(
                extendedResultCode: SQLITE_ERROR,
                message: "cart '\(DisplayText.clean(header.id))' is not stored at version \(previousVersion): another "
                    + "client changed or deleted it, or its stored ID is not valid UTF-8; nothing was saved",
                sql: sql.text)
        }
    }

    private static let selectCartLines = CachedSQL(
        """
        SELECT l.position, l.quantity, p.sku, p.name, p.price, p.active, p.stock
        FROM cart_lines AS l JOIN products AS p ON p.sku = l.sku
        WHERE l.cart_id = ?
        """)

    // No ORDER BY: the rows come in SKU order (the primary key's), and sorting a cart's few
    // lines here costs far less than SQLite's sorter.
    func cartLines(cartID: String) throws -> [StoredCartLine] {
        let statement = try database.cached(Self.selectCartLines)
        defer { statement.reset() }
        try statement.bind(cartID, at: 1)
        var lines: [(position: Int, line: StoredCartLine)] = []
        // Room for a typical cart, so that reading one does not reallocate as it goes.
        lines.reserveCapacity(16)
        // Whether the positions ascend, followed as the rows come: comparing stored lines
        // afterwards would copy them.
        var inOrder = true
        var previousPosition = Int.min
        while try statement.step() {
            let product = try product(from: statement, startingAt: 2)
            // The line's name is built only for an error message.
            func line() -> String { "'\(clean(product.sku))' in cart '\(clean(cartID))'" }
            // As stored, in range or not: the service checks it (`CartService.usableLines`).
            let quantity = try statement.int(at: 1, in: StoredRange.anyInteger, "the quantity of \(line())")
            let position = try statement.int(at: 0, in: StoredRange.position, "the position of \(line())")
            if position < previousPosition { inOrder = false }
            previousPosition = position
            lines.append((position, StoredCartLine(quantity: quantity, product: product)))
        }
        if !inOrder { lines.sort { $0.position < $1.position } }
        return lines.map(\.line)
    }

    private static let selectCartsHolding = CachedSQL("SELECT cart_id FROM cart_lines WHERE sku = ? ORDER BY cart_id")

    // One statement, where the default reads every cart's lines. No index leads with the SKU,
    // so it reads cart_lines through (in cart order already); a product is deleted rarely,
    // and such an index would cost every add to a cart a second B-tree write.
    func cartsHolding(sku: String) throws -> [String] {
        let statement = try database.cached(Self.selectCartsHolding)
        defer { statement.reset() }
        try statement.bind(sku, at: 1)
        var carts: [String] = []
        while try statement.step() { carts.append(try statement.string(at: 0)) }
        return carts
    }

    private static let selectLinesWithoutProduct = CachedSQL(
        """
        SELECT l.sku FROM cart_lines AS l LEFT JOIN products AS p ON p.sku = l.sku
        WHERE l.cart_id = ? AND p.sku IS NULL
        ORDER BY l.position
        """)

    // The schema's foreign key keeps such lines out, but a client with foreign keys off (the
    // sqlite3 shell's default) can delete a product that lines hold.
    func linesWithoutProduct(cartID: String) throws -> [String] {
        let statement = try database.cached(Self.selectLinesWithoutProduct)
        defer { statement.reset() }
        try statement.bind(cartID, at: 1)
        var skus: [String] = []
        while try statement.step() { skus.append(try statement.string(at: 0)) }
        return skus
    }

    // One statement instead of four (header, product, line, settings). The last three
    // columns, keys, are NULL exactly when their row is missing: a NULL among the values is
    // another client's doing, and a read refuses it.
    private static let selectLineContext = CachedSQL(
        """
        SELECT c.version, c.line_count, c.next_position, p.price, p.active, p.stock, l.quantity,
            s.currency, s.currency_exponent, s.currency_symbol, s.max_line_quantity, s.max_lines_per_cart,
            c.id, p.sku, l.sku
        FROM (SELECT 1)
            LEFT JOIN carts AS c ON c.id = ?1
            LEFT JOIN products AS p ON p.sku = ?2
            LEFT JOIN cart_lines AS l ON l.cart_id = ?1 AND l.sku = ?2
            LEFT JOIN settings AS s ON s.id = 1
        """)

    func lineContext(cartID: String, sku: String) throws -> CartLineContext {
        let statement = try database.cached(Self.selectLineContext)
        defer { statement.reset() }
        try statement.bind(cartID, at: 1)
        try statement.bind(sku, at: 2)
        guard try statement.step() else { throw database.lastError(sql: statement.sql) }
        guard !statement.isNull(at: 7) else { throw StoredDataError("the store has no settings row") }
        let settings = try Self.settings(from: statement, startingAt: 7)
        knownSettings = settings
        let (cartExists, productExists, lineExists) =
            (!statement.isNull(at: 12), !statement.isNull(at: 13), !statement.isNull(at: 14))
        func cart() -> String { "cart '\(clean(cartID))'" }
        let terms =
            productExists ? try self.terms(from: statement, startingAt: 3, sku: sku, currency: settings.currency) : nil
        return CartLineContext(
            cartVersion: cartExists ? try statement.int(at: 0, in: StoredRange.version, "the version of \(cart())") : nil,
            lineCount: cartExists ? try statement.int(at: 1, in: StoredRange.lineCount, "the line count of \(cart())") : 0,
            nextLinePosition: cartExists
                ? try statement.int(at: 2, in: StoredRange.position, "the next line position of \(cart())") : 1,
            terms: terms,
            // As stored: the service decides what a quantity out of range allows.
            quantity: lineExists
                ? try statement.int(at: 6, in: StoredRange.anyInteger, "the quantity of '\(clean(sku))' in \(cart())") : nil,
            settings: settings)
    }

    private static let insertCartLineSQL = CachedSQL(
        "INSERT INTO cart_lines (cart_id, sku, quantity, position) VALUES (?1, ?2, ?3, ?4)")

    func insertCartLine(cartID: String, sku: String, quantity: Int, position: Int) throws {
        let statement = try database.cached(Self.insertCartLineSQL)
        try statement.bind(cartID, at: 1)
        try statement.bind(sku, at: 2)
        try statement.bind(quantity, at: 3)
        try statement.bind(position, at: 4)
        try statement.run()
    }

    private static let updateCartLineSQL = CachedSQL(
        "UPDATE cart_lines SET quantity = ?3 WHERE cart_id = ?1 AND sku = ?2")

    func updateCartLine(cartID: String, sku: String, quantity: Int) throws {
        let statement = try database.cached(Self.updateCartLineSQL)
        try statement.bind(cartID, at: 1)
        try statement.bind(sku, at: 2)
        try statement.bind(quantity, at: 3)
        try statement.run()
        try database.requireOneRowChanged(Self.updateCartLineSQL, key: sku)
    }

    private static let deleteCartLineSQL = CachedSQL("DELETE FROM cart_lines WHERE cart_id = ? AND sku = ?")

    func deleteCartLine(cartID: String, sku: String) throws {
        let statement = try database.cached(Self.deleteCartLineSQL)
        try statement.bind(cartID, at: 1)
        try statement.bind(sku, at: 2)
        try statement.run()
        try database.requireOneRowChanged(Self.deleteCartLineSQL, key: sku)
    }

    private static let deleteCartLinesSQL = CachedSQL("DELETE FROM cart_lines WHERE cart_id = ?")

    func deleteCartLines(cartID: String) throws -> Int {
        let statement = try database.cached(Self.deleteCartLinesSQL)
        try statement.bind(cartID, at: 1)
        try statement.run()
        return database.changes
    }

    // Each known line goes by its primary key, then one statement takes any other (a line
    // whose product another client deleted is not among those read). cart_lines has foreign
    // keys, so a statement deleting several rows first copies their keys into a table of its
    // own and seeks each row again; deleting by key skips that, and the last statement then
    // finds nothing to copy.
    func deleteCartLines(cartID: String, including skus: [String]) throws -> Int {
        for sku in skus { try deleteCartLine(cartID: cartID, sku: sku) }
        return try skus.count + deleteCartLines(cartID: cartID)
    }

    private static let deleteCartSQL = CachedSQL("DELETE FROM carts WHERE id = ?")

    func deleteCart(id: String) throws {
        let statement = try database.cached(Self.deleteCartSQL)
        try statement.bind(id, at: 1)
        try statement.run()
        try database.requireOneRowChanged(Self.deleteCartSQL, key: id)
    }

    // The smallest and largest quantity too, since the sum is all that is read of them: a cart
    // with one out of range is listed with its units unknown. total() rather than sum(), which
    // fails the whole statement on an overflow before the rows can be checked, and is exact
    // for every sum of quantities in range.
    private static let selectCartPage = CachedSQL(
        """
        SELECT c.id, c.version, c.updated_at, count(l.sku), CAST(total(l.quantity) AS INTEGER),
            min(l.quantity), max(l.quantity)
        FROM carts AS c LEFT JOIN cart_lines AS l ON l.cart_id = c.id
        WHERE c.id > ?1 GROUP BY c.id HAVING count(l.sku) > 0 OR NOT ?2 ORDER BY c.id LIMIT ?3
        """)

    func carts() throws -> [CartSummary] {
        try carts(after: nil, nonEmpty: false, limit: nil)
    }

    // A range of the primary key, each cart's lines read by theirs, where the default reads
    // every cart and line: the groups come in ID order, so the statement stops at the limit.
    func carts(after: String?, nonEmpty: Bool, limit: Int?) throws -> [CartSummary] {
        let statement = try database.cached(Self.selectCartPage)
        defer { statement.reset() }
        // Every cart ID sorts after the empty text (the schema keeps IDs non-empty); a negative
        // limit is none.
        try statement.bind(after ?? "", at: 1)
        try statement.bind(nonEmpty, at: 2)
        try statement.bind(limit ?? -1, at: 3)
        return try cartSummaries(from: statement)
    }

    private func cartSummaries(from statement: Statement) throws -> [CartSummary] {
        var carts: [CartSummary] = []
        while try statement.step() {
            let id = try statement.string(at: 0)
            func cart() -> String { "cart '\(clean(id))'" }
            carts.append(
                try CartSummary(
                    id: id, version: try statement.int(at: 1, in: StoredRange.version, "the version of \(cart())"),
                    updatedAt: try instant(from: statement, at: 2, "the time \(cart()) last changed"),
                    lineCount: try statement.int(at: 3, in: 0...Int64.max, "the number of lines of \(cart())"),
                    smallestQuantity: try statement.optionalInt(at: 5, in: StoredRange.anyInteger, "a quantity in \(cart())"),
                    largestQuantity: try statement.optionalInt(at: 6, in: StoredRange.anyInteger, "a quantity in \(cart())"),
                    sum: { try statement.int(at: 4, in: 0...Int64.max, "the units in \(cart())") }))
        }
        return carts
    }

    private static let countCarts = CachedSQL("SELECT count(*) FROM carts")

    func cartCount() throws -> Int {
        try count(Self.countCarts, of: "carts")
    }

    private static let deleteCartsSQL = CachedSQL("DELETE FROM carts WHERE updated_at < ?")

    // Their lines go with them (ON DELETE CASCADE). A stored millisecond is before `instant`
    // exactly when it is below the instant rounded up.
    func deleteCarts(updatedBefore instant: Date) throws -> Int {
        let statement = try database.cached(Self.deleteCartsSQL)
        try statement.bind(UTCCalendar.ceilingMilliseconds(instant), at: 1)
        try statement.run()
        return database.changes
    }
}
