#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CartCore

/// Carts and their lines. Every change to a cart's lines also updates the cart's `CartRowState`,
/// which `saveCartHeader(_:)` or `finish()` writes back to the `carts` row.
extension SQLiteCartStorage {
    private static let selectCartRow = CachedSQL(
        "SELECT version, updated_at, line_count, next_position FROM carts WHERE id = ?")

    func cartHeader(id: String) throws -> CartHeader? {
        let statement = try database.cached(Self.selectCartRow)
        defer { statement.reset() }
        try statement.bind(id, at: 1)
        let exists = try statement.step()
        if cartRows.firstIndex(where: { $0.cartID == id }) == nil {
            cartRows.append(
                CartRowState(
                    cartID: id, exists: exists, lineCount: exists ? statement.int(at: 2) : 0,
                    nextPosition: exists ? statement.int(at: 3) : 1))
        }
        guard exists else { return nil }
        return CartHeader(
            id: id, version: statement.int(at: 0), updatedAt: UTCCalendar.date(milliseconds: statement.int64(at: 1)))
    }

    func lockCart(id: String) throws -> CartHeader? { try cartHeader(id: id) }

    /// The index in `cartRows` of the cart's state, read from `carts` if this unit has not yet.
    private func cartRowIndex(_ cartID: String) throws -> Int {
        if let index = cartRows.firstIndex(where: { $0.cartID == cartID }) { return index }
        _ = try cartHeader(id: cartID)
        return cartRows.count - 1
    }

    private static let insertCartSQL = CachedSQL(
        "INSERT INTO carts (id, version, updated_at, line_count, next_position) VALUES (?1, ?2, ?3, ?4, ?5)")
    private static let updateCartSQL = CachedSQL(
        "UPDATE carts SET version = ?2, updated_at = ?3, line_count = ?4, next_position = ?5 WHERE id = ?1")
    private static let upsertCartHeaderSQL = CachedSQL(
        """
        INSERT INTO carts (id, version, updated_at) VALUES (?1, ?2, ?3)
        ON CONFLICT (id) DO UPDATE SET version = excluded.version, updated_at = excluded.updated_at
        """)

    // A plain UPDATE of a row the unit has read: an upsert runs the INSERT's CHECKs (the ID's
    // GLOB among them) before it finds the conflict, on every call.
    func saveCartHeader(_ header: CartHeader) throws {
        let index = cartRows.firstIndex { $0.cartID == header.id }
        let statement: Statement
        var update: CachedSQL?
        if let index {
            let row = cartRows[index]
            update = row.exists ? Self.updateCartSQL : nil
            statement = try database.cached(update ?? Self.insertCartSQL)
            try statement.bind(row.lineCount, at: 4)
            try statement.bind(row.nextPosition, at: 5)
            cartRows[index].exists = true
            cartRows[index].isDirty = false
        } else {
            // A cart this unit never read has no line changes to write.
            statement = try database.cached(Self.upsertCartHeaderSQL)
        }
        try statement.bind(header.id, at: 1)
        try statement.bind(header.version, at: 2)
        try statement.bind(UTCCalendar.milliseconds(header.updatedAt), at: 3)
        try statement.run()
        if let update { try database.requireOneRowChanged(update, key: header.id) }
    }

    private static let updateCartSummarySQL = CachedSQL(
        "UPDATE carts SET line_count = ?2, next_position = ?3 WHERE id = ?1")

    /// Writes the line summaries the unit changed but has not saved with a header; called by
    /// the repository before it commits. Lines of a cart without a row are left to the foreign
    /// key, which refuses the commit.
    func finish() throws {
        for row in cartRows where row.isDirty && row.exists {
            let statement = try database.cached(Self.updateCartSummarySQL)
            try statement.bind(row.cartID, at: 1)
            try statement.bind(row.lineCount, at: 2)
            try statement.bind(row.nextPosition, at: 3)
            try statement.run()
            try database.requireOneRowChanged(Self.updateCartSummarySQL, key: row.cartID)
        }
    }

    private static let selectCartLines = CachedSQL(
        """
        SELECT l.position, l.quantity, p.sku, p.name, p.price, p.active, p.stock
        FROM cart_lines AS l JOIN products AS p ON p.sku = l.sku
        WHERE l.cart_id = ?
        """)

    // No ORDER BY: the rows come in SKU order (the primary key's), and putting a cart's lines
    // in position order here costs far less than SQLite's sorter, which took 13k of the 36k
    // instructions this query cost for 5 lines (issue 6).
    func cartLines(cartID: String) throws -> [StoredCartLine] {
        let statement = try database.cached(Self.selectCartLines)
        defer { statement.reset() }
        try statement.bind(cartID, at: 1)
        var lines: [StoredCartLine] = []
        var positions: [Int] = []
        // The line count, when this unit has read the cart's row: growing both arrays from
        // empty reallocated them three times for 5 lines. Capped, since the count comes from
        // the file, which another client may have written.
        if let row = cartRows.first(where: { $0.cartID == cartID }) {
            let expected = min(max(row.lineCount, 0), StoreSettings.maxLinesPerCartRange.upperBound)
            lines.reserveCapacity(expected)
            positions.reserveCapacity(expected)
        }
        while try statement.step() {
            positions.append(statement.int(at: 0))
            lines.append(StoredCartLine(quantity: statement.int(at: 1), product: try product(from: statement, startingAt: 2)))
        }
        if zip(positions, positions.dropFirst()).contains(where: { $0 > $1 }) {
            lines = positions.indices.sorted { positions[$0] < positions[$1] }.map { lines[$0] }
        }
        return lines
    }

    func lockCartLines(cartID: String) throws -> [StoredCartLine] {
        let lines = try cartLines(cartID: cartID)
        lockedLines = (cartID, lines.map(\.product.sku))
        return lines
    }

    /// Forgets what `lockCartLine` and `lockCartLines` read: the unit is about to change lines.
    private func linesWillChange() {
        lockedLine = nil
        lockedLines = nil
    }

    private static let selectLineQuantity = CachedSQL("SELECT quantity FROM cart_lines WHERE cart_id = ? AND sku = ?")

    func cartLineQuantity(cartID: String, sku: String) throws -> Int? {
        let statement = try database.cached(Self.selectLineQuantity)
        defer { statement.reset() }
        try statement.bind(cartID, at: 1)
        try statement.bind(sku, at: 2)
        return try statement.step() ? statement.int(at: 0) : nil
    }

    func cartLineCount(cartID: String) throws -> Int {
        cartRows[try cartRowIndex(cartID)].lineCount
    }

    private static let insertCartLineSQL = CachedSQL(
        "INSERT INTO cart_lines (cart_id, sku, quantity, position) VALUES (?1, ?2, ?3, ?4)")
    private static let updateCartLineSQL = CachedSQL(
        "UPDATE cart_lines SET quantity = ?3 WHERE cart_id = ?1 AND sku = ?2")
    private static let upsertCartLineSQL = CachedSQL(
        """
        INSERT INTO cart_lines (cart_id, sku, quantity, position) VALUES (?1, ?2, ?3, ?4)
        ON CONFLICT (cart_id, sku) DO UPDATE SET quantity = excluded.quantity
        RETURNING position
        """)

    func setCartLine(cartID: String, sku: String, quantity: Int) throws {
        let locked = lockedLine
        linesWillChange()
        let isLocked = locked?.cartID == cartID && locked?.sku == sku
        if isLocked, locked?.exists == true {
            let statement = try database.cached(Self.updateCartLineSQL)
            try statement.bind(cartID, at: 1)
            try statement.bind(sku, at: 2)
            try statement.bind(quantity, at: 3)
            try statement.run()
            try database.requireOneRowChanged(Self.updateCartLineSQL, key: sku)
            return
        }
        let index = try cartRowIndex(cartID)
        let position = cartRows[index].nextPosition
        // A line lockCartLine found missing is inserted; any other line is upserted, and was
        // new if it took the new position (every stored position is below it).
        let statement = try database.cached(isLocked ? Self.insertCartLineSQL : Self.upsertCartLineSQL)
        defer { statement.reset() }
        try statement.bind(cartID, at: 1)
        try statement.bind(sku, at: 2)
        try statement.bind(quantity, at: 3)
        try statement.bind(position, at: 4)
        if try statement.step(), statement.int(at: 0) != position { return }
        try cartRows[index].lineInserted()
    }

    // One statement instead of four (header with line summary, product, line). A cart this
    // unit has already changed keeps the summary the unit holds for it.
    private static let lockCartLineSQL = CachedSQL(
        """
        SELECT c.version, c.line_count, c.next_position, p.price, p.active, p.stock, l.quantity
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
        let exists = !statement.isNull(at: 0)
        let index: Int
        if let known = cartRows.firstIndex(where: { $0.cartID == cartID }) {
            index = known
        } else {
            index = cartRows.count
            cartRows.append(
                CartRowState(
                    cartID: cartID, exists: exists, lineCount: exists ? statement.int(at: 1) : 0,
                    nextPosition: exists ? statement.int(at: 2) : 1))
        }
        let terms =
            statement.isNull(at: 3)
            ? nil
            : ProductTerms(
                price: try money(statement.int64(at: 3)), isActive: statement.bool(at: 4),
                stock: statement.optionalInt(at: 5))
        let quantity = statement.optionalInt(at: 6)
        lockedLine = (cartID, sku, quantity != nil)
        return CartLineContext(
            cartVersion: exists ? statement.int(at: 0) : nil, terms: terms, quantity: quantity,
            lineCount: quantity == nil ? cartRows[index].lineCount : 0)
    }

    private static let deleteCartLineSQL = CachedSQL("DELETE FROM cart_lines WHERE cart_id = ? AND sku = ?")

    func deleteCartLine(cartID: String, sku: String) throws {
        linesWillChange()
        let deleted = try deleteLineRow(cartID: cartID, sku: sku)
        if deleted > 0 { cartRows[try cartRowIndex(cartID)].linesDeleted(deleted) }
    }

    /// Deletes one line by its primary key; how many rows went (0 or 1).
    private func deleteLineRow(cartID: String, sku: String) throws -> Int {
        let statement = try database.cached(Self.deleteCartLineSQL)
        try statement.bind(cartID, at: 1)
        try statement.bind(sku, at: 2)
        try statement.run()
        return database.changes
    }

    private static let deleteCartLinesSQL = CachedSQL("DELETE FROM cart_lines WHERE cart_id = ?")

    // Lines this unit has read with lockCartLines, and not changed since, are deleted one by
    // one by primary key, and each must go. cart_lines has foreign keys, so SQLite will not
    // delete several rows in one pass: it first copies their keys into an ephemeral table it
    // creates for the statement, then seeks each row again (issue 6: checkout's 5 lines, 68k
    // instructions that way). Only when the lines read are all the cart has: the read joins
    // products, so a line whose product another client deleted (foreign keys off) is not among
    // them, and the one statement takes it too. Either way the cart has no line left, which
    // its row's summary then says, even if another client's writes had put it off.
    func deleteCartLines(cartID: String) throws -> Int {
        let locked = lockedLines
        linesWillChange()
        if let locked, locked.cartID == cartID,
            let index = cartRows.firstIndex(where: { $0.cartID == cartID }),
            cartRows[index].lineCount == locked.skus.count
        {
            for sku in locked.skus {
                // Counted before the check, so a caller that goes on after the error still
                // writes a summary that matches the lines.
                cartRows[index].linesDeleted(try deleteLineRow(cartID: cartID, sku: sku))
                try database.requireOneRowChanged(Self.deleteCartLineSQL, key: sku)
            }
            return locked.skus.count
        }
        let statement = try database.cached(Self.deleteCartLinesSQL)
        try statement.bind(cartID, at: 1)
        try statement.run()
        let deleted = database.changes
        if deleted > 0 { cartRows[try cartRowIndex(cartID)].allLinesDeleted() }
        return deleted
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
        linesWillChange()
        // The deleted carts' lines go with them (ON DELETE CASCADE); states read before are
        // stale, but the line summaries this unit changed for other carts are written first.
        try finish()
        cartRows.removeAll()
        let statement = try database.cached(Self.deleteCartsSQL)
        try statement.bind(UTCCalendar.milliseconds(instant), at: 1)
        try statement.run()
        return database.changes
    }
}
