#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CartCore

/// Carts and their lines.
extension PostgresCartStorage {
    private static let selectCartHeader: PostgresSQL = "SELECT version, updated_at, line_count, next_position FROM carts WHERE id = $1"
    // FOR UPDATE rather than FOR NO KEY UPDATE: the cart may be deleted, and no other unit
    // may add a line to it meanwhile (the foreign key's check takes a key-share lock on it).
    static let lockCartHeader = PostgresSQL(selectCartHeader.text + " FOR UPDATE")

    func cartHeader(id: String) throws -> CartHeader? {
        guard let row = try rows(locks ? Self.lockCartHeader : Self.selectCartHeader, [.text(id)]).first else { return nil }
        // A function, not a string: the messages are built only for a value that is refused.
        func cart() -> String { "cart '\(DisplayText.clean(id))'" }
        return CartHeader(
            id: id, version: try row.int(0, in: StoredRange.version, "the version of \(cart())"),
            updatedAt: try Self.instant(row, at: 1, "the time \(cart()) last changed"),
            lineCount: try row.int(2, in: StoredRange.lineCount, "the line count of \(cart())"),
            nextLinePosition: try row.int(3, in: StoredRange.position, "the next line position of \(cart())"))
    }

    /// The stored instant in `column`, which must lie in `StoredRange.instant`.
    static func instant(_ row: PostgresRow, at column: Int, _ what: @autoclosure () -> String) throws -> Date {
        UTCCalendar.date(milliseconds: Int64(try row.int(column, in: StoredRange.instant, what())))
    }

    static let insertCartSQL: PostgresSQL = """
        INSERT INTO carts (id, version, updated_at, line_count, next_position) VALUES ($1, $2, $3, $4, $5)
        ON CONFLICT (id) DO NOTHING
        """
    static let updateCartSQL: PostgresSQL = """
        UPDATE carts SET version = $2, updated_at = $3, line_count = $4, next_position = $5
        WHERE id = $1 AND version = $6
        """

    // The UPDATE replaces only the version the unit read, so a header at another version is
    // refused, not overwritten.
    func saveCartHeader(_ header: CartHeader, previousVersion: Int?) throws {
        var parameters: [PostgresValue] = [
            .text(header.id), PostgresValue(header.version), .integer(UTCCalendar.milliseconds(header.updatedAt)),
            PostgresValue(header.lineCount), PostgresValue(header.nextLinePosition),
        ]
        guard let previousVersion else {
            guard try change(Self.insertCartSQL, parameters) == 1 else {
                throw PostgresStoreError.alreadyStored("cart '\(DisplayText.clean(header.id))'")
            }
            return
        }
        parameters.append(PostgresValue(previousVersion))
        guard try change(Self.updateCartSQL, parameters) == 1 else {
            throw PostgresStoreError.notStored("cart '\(DisplayText.clean(header.id))' at version \(previousVersion)")
        }
    }

    private static let selectCartLines: PostgresSQL = """
        SELECT l.position, l.quantity, p.sku, p.name, p.price, p.active, p.stock
        FROM cart_lines AS l JOIN products AS p ON p.sku = l.sku
        WHERE l.cart_id = $1
        ORDER BY p.sku
        """
    // Products in SKU order, so that checkouts sharing products lock them in the same order.
    static let lockCartLines = PostgresSQL(selectCartLines.text + " FOR UPDATE OF l FOR NO KEY UPDATE OF p")

    func cartLines(cartID: String) throws -> [StoredCartLine] {
        var lines: [(position: Int, line: StoredCartLine)] = []
        for row in try rows(locks ? Self.lockCartLines : Self.selectCartLines, [.text(cartID)]) {
            let product = try product(from: row, at: 2)
            // The line's name is built only for an error message.
            func line() -> String { "'\(DisplayText.clean(product.sku))' in cart '\(DisplayText.clean(cartID))'" }
            // As stored, in range or not: the service checks it (`CartService.usableLines`).
            let quantity = try row.int(1, in: StoredRange.anyInteger, "the quantity of \(line())")
            let position = try row.int(0, in: StoredRange.position, "the position of \(line())")
            lines.append((position, StoredCartLine(quantity: quantity, product: product)))
        }
        return lines.sorted { ($0.position, $0.line.product.sku) < ($1.position, $1.line.product.sku) }.map(\.line)
    }

    private static let selectLinesWithoutProduct: PostgresSQL = """
        SELECT l.sku FROM cart_lines AS l
        WHERE l.cart_id = $1 AND NOT EXISTS (SELECT FROM products AS p WHERE p.sku = l.sku)
        ORDER BY l.position
        """

    // The schema's foreign key keeps such lines out, but a superuser can switch its trigger
    // off (`session_replication_role = replica`, as some replication and restore tools do)
    // and delete a product that lines hold.
    func linesWithoutProduct(cartID: String) throws -> [String] {
        try rows(Self.selectLinesWithoutProduct, [.text(cartID)]).map { try $0.string(0) }
    }

    // The last three columns, keys, are NULL exactly when their row is missing: a NULL among
    // the values is another client's doing, and a read refuses it.
    private static let lineContextColumns = """
        SELECT c.version, c.line_count, c.next_position, p.price, p.active, p.stock, l.quantity,
            s.currency, s.currency_exponent, s.currency_symbol, s.max_line_quantity, s.max_lines_per_cart,
            c.id, p.sku, l.sku
        """
    private static let selectLineContext = PostgresSQL(
        lineContextColumns + """

            FROM (SELECT) AS one
                LEFT JOIN carts AS c ON c.id = $1
                LEFT JOIN products AS p ON p.sku = $2
                LEFT JOIN cart_lines AS l ON l.cart_id = $1 AND l.sku = $2
                LEFT JOIN settings AS s ON s.id = 1
            """)
    // FOR UPDATE cannot lock the nullable side of an outer join, so each row is locked in a
    // CTE of its own. They run in join order, the cart first, as in every unit that locks a
    // cart and its lines' products; were the planner to order them otherwise, a deadlock
    // would end one of the units, and the repository would run it again.
    static let lockLineContext = PostgresSQL(
        """
        WITH c AS (SELECT id, version, line_count, next_position FROM carts WHERE id = $1 FOR UPDATE),
            p AS (SELECT sku, price, active, stock FROM products WHERE sku = $2 FOR SHARE),
            l AS (SELECT sku, quantity FROM cart_lines WHERE cart_id = $1 AND sku = $2 FOR UPDATE)

        """ + lineContextColumns + """

            FROM (SELECT) AS one
                LEFT JOIN c ON true LEFT JOIN p ON true LEFT JOIN l ON true LEFT JOIN settings AS s ON s.id = 1
            """)

    // One statement instead of four (header, product, line, settings).
    func lineContext(cartID: String, sku: String) throws -> CartLineContext {
        // The statement reads the settings itself, and takes its table locks before its row
        // locks; the settings table's share, a lock no statement takes by reading, comes first.
        queueSettingsShare()
        let result = try connection.execute(locks ? Self.lockLineContext : Self.selectLineContext, [.text(cartID), .text(sku)])
        guard let row = result.first else { throw PostgresStoreError.missingRow("answer to a line's context") }
        guard !(try row.isNull(7)) else { throw PostgresStoreError.missingRow("settings row") }
        let settings = try Self.settings(row, at: 7)
        knownSettings = settings
        let (cartExists, productExists, lineExists) = (!(try row.isNull(12)), !(try row.isNull(13)), !(try row.isNull(14)))
        func cart() -> String { "cart '\(DisplayText.clean(cartID))'" }
        let terms = productExists ? try Self.terms(from: row, at: 3, sku: sku, currency: settings.currency) : nil
        return CartLineContext(
            cartVersion: cartExists ? try row.int(0, in: StoredRange.version, "the version of \(cart())") : nil,
            lineCount: cartExists ? try row.int(1, in: StoredRange.lineCount, "the line count of \(cart())") : 0,
            nextLinePosition: cartExists ? try row.int(2, in: StoredRange.position, "the next line position of \(cart())") : 1,
            terms: terms,
            // As stored: the service decides what a quantity out of range allows.
            quantity: lineExists
                ? try row.int(6, in: StoredRange.anyInteger, "the quantity of '\(DisplayText.clean(sku))' in \(cart())") : nil,
            settings: settings)
    }

    static let insertCartLineSQL: PostgresSQL = """
        INSERT INTO cart_lines (cart_id, sku, quantity, position)
        SELECT $1::text, $2::text, $3::bigint, $4::bigint WHERE EXISTS (SELECT FROM products WHERE sku = $2)
        ON CONFLICT (cart_id, sku) DO NOTHING
        """

    // Neither a line already there nor an unknown product makes the statement fail, which
    // would abort the unit: it inserts nothing, and the row count tells.
    func insertCartLine(cartID: String, sku: String, quantity: Int, position: Int) throws {
        guard quantity > 0 else { throw PostgresStoreError.nonPositiveQuantity(quantity) }
        let parameters: [PostgresValue] = [.text(cartID), .text(sku), PostgresValue(quantity), PostgresValue(position)]
        guard try change(Self.insertCartLineSQL, parameters) == 1 else {
            throw PostgresStoreError.alreadyStored(
                "the line of cart '\(DisplayText.clean(cartID))' for '\(DisplayText.clean(sku))' (or no such product)")
        }
    }

    static let updateCartLineSQL: PostgresSQL = "UPDATE cart_lines SET quantity = $3 WHERE cart_id = $1 AND sku = $2"

    func updateCartLine(cartID: String, sku: String, quantity: Int) throws {
        guard quantity > 0 else { throw PostgresStoreError.nonPositiveQuantity(quantity) }
        guard try change(Self.updateCartLineSQL, [.text(cartID), .text(sku), PostgresValue(quantity)]) == 1 else {
            throw PostgresStoreError.notStored(Self.line(cartID, sku))
        }
    }

    private static let deleteCartLineSQL: PostgresSQL = "DELETE FROM cart_lines WHERE cart_id = $1 AND sku = $2"

    func deleteCartLine(cartID: String, sku: String) throws {
        guard try change(Self.deleteCartLineSQL, [.text(cartID), .text(sku)]) == 1 else {
            throw PostgresStoreError.notStored(Self.line(cartID, sku))
        }
    }

    private static func line(_ cartID: String, _ sku: String) -> String {
        "the line of cart '\(DisplayText.clean(cartID))' for '\(DisplayText.clean(sku))'"
    }

    static let deleteCartLinesSQL: PostgresSQL = "DELETE FROM cart_lines WHERE cart_id = $1"

    func deleteCartLines(cartID: String) throws -> Int {
        try change(Self.deleteCartLinesSQL, [.text(cartID)])
    }

    private static let deleteCartSQL: PostgresSQL = "DELETE FROM carts WHERE id = $1"

    // Its lines go with it (ON DELETE CASCADE).
    func deleteCart(id: String) throws {
        guard try change(Self.deleteCartSQL, [.text(id)]) == 1 else {
            throw PostgresStoreError.notStored("cart '\(DisplayText.clean(id))'")
        }
    }

    /// In a write unit, no cart or line changes until the unit ends.
    private static let lockCartTables = PostgresStatement("LOCK TABLE carts, cart_lines IN SHARE MODE")
    // The smallest and largest quantity too: a cart with one out of range is listed with its
    // units unknown, and its sum, which may not fit a bigint, is not read. The cursor bounds
    // the lines too: PostgreSQL does not carry an inequality across the join's equality, and
    // would otherwise read every line before the page.
    private static let selectCartPage: PostgresSQL = """
        SELECT c.id, c.version, c.updated_at, count(l.sku), coalesce(sum(l.quantity), 0),
            min(l.quantity), max(l.quantity)
        FROM carts AS c LEFT JOIN cart_lines AS l ON l.cart_id = c.id AND l.cart_id > $1
        WHERE c.id > $1 GROUP BY c.id HAVING count(l.sku) > 0 OR NOT $2 ORDER BY c.id LIMIT $3
        """

    func carts() throws -> [CartSummary] {
        try carts(after: nil, nonEmpty: false, limit: nil)
    }

    // A range of the primary key, where the default reads every cart and line. A null limit is
    // none; every cart ID sorts after the empty text (the schema keeps IDs non-empty).
    func carts(after: String?, nonEmpty: Bool, limit: Int?) throws -> [CartSummary] {
        try rows(
            Self.selectCartPage, [.text(after ?? ""), .boolean(nonEmpty), PostgresValue(limit)], lock: Self.lockCartTables
        ).map(Self.cartSummary)
    }

    private static func cartSummary(from row: PostgresRow) throws -> CartSummary {
        let id = try row.string(0)
        func cart() -> String { "cart '\(DisplayText.clean(id))'" }
        return try CartSummary(
            id: id, version: try row.int(1, in: StoredRange.version, "the version of \(cart())"),
            updatedAt: try instant(row, at: 2, "the time \(cart()) last changed"), lineCount: try row.int(3),
            smallestQuantity: try row.optionalInt(5, in: StoredRange.anyInteger, "a quantity in \(cart())"),
            largestQuantity: try row.optionalInt(6, in: StoredRange.anyInteger, "a quantity in \(cart())"),
            sum: { try row.int(4) })
    }

    private static let selectCartsHolding: PostgresSQL = "SELECT cart_id FROM cart_lines WHERE sku = $1 ORDER BY cart_id"

    // The product's row lock conflicts with the key share lock that a new line's foreign key
    // takes on it, so no line of it is added until the unit ends, and the read sees every line
    // a unit added before. A lock on the cart tables instead would wait for adds of any
    // product, and deadlock with them: they take the tables the other way round.
    private static let lockProductRow: PostgresSQL = "SELECT FROM products WHERE sku = $1 FOR UPDATE"

    // No index leads with the SKU, so this read, and the foreign-key check of the product's
    // deletion after it, each scan cart_lines, while the product's row stays locked: a product
    // is deleted rarely, and such an index would cost every add to a cart a second B-tree
    // write, as in SQLite.
    func cartsHolding(sku: String) throws -> [String] {
        try rows(Self.selectCartsHolding, [.text(sku)], lock: PostgresStatement(Self.lockProductRow, [.text(sku)]))
            .map { row in try row.string(0) }
    }

    /// In a write unit, no cart is added or deleted until the unit ends.
    private static let lockCartsTable = PostgresStatement("LOCK TABLE carts IN SHARE MODE")
    private static let countCarts: PostgresSQL = "SELECT count(*) FROM carts"

    func cartCount() throws -> Int {
        return try rows(Self.countCarts, lock: Self.lockCartsTable).first?.int(0) ?? 0
    }

    private static let deleteCartsSQL: PostgresSQL = "DELETE FROM carts WHERE updated_at < $1"

    // One statement, comparing as `OrderQuery.placedMillisecondBounds` does; their lines go
    // with them. A cart another unit changes meanwhile is checked again once that unit
    // commits, and kept if it is no longer old.
    func deleteCarts(updatedBefore instant: Date) throws -> Int {
        try change(Self.deleteCartsSQL, [.integer(UTCCalendar.ceilingMilliseconds(instant))])
    }
}
