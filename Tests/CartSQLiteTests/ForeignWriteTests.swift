import CartCore
import CartSQLite
import Foundation
import Testing

/// Rows another client can store that the schema allows but this tool never writes: each must
/// give a clear error or a correct result, never a crash, a silent skip or a half-changed file.
@Suite("Rows written by another client")
struct ForeignWriteTests {
    @Test("a line count far beyond any cart is read without reserving memory for it")
    func hugeLineCount() throws {
        let directory = try TemporaryDirectory()
        let (path, service) = try aliceFile(in: directory, products: 2)
        try sqlite(path, "UPDATE carts SET line_count = 100000000000 WHERE id = 'alice'")
        #expect(try service.cart("alice").lines.map(\.sku) == ["sku-0"])
        #expect(try service.checkout("alice").order.lines.map(\.sku) == ["sku-0"])
        #expect(try rows(path, "SELECT count(*) FROM cart_lines") == ["0"])
    }

    @Test("checkout takes a line whose product another client deleted along with the others")
    func checkoutTakesGhostLine() throws {
        let directory = try TemporaryDirectory()
        let (path, service) = try aliceFile(in: directory, products: 2)
        try service.add("sku-1", to: "alice")
        // Foreign keys off: the line stays, pointing at nothing, and no cart read shows it.
        try sqlite(path, "DELETE FROM products WHERE sku = 'sku-1'")
        #expect(try service.cart("alice").lines.map(\.sku) == ["sku-0"])
        #expect(try service.checkout("alice").order.lines.map(\.sku) == ["sku-0"])
        #expect(try rows(path, "SELECT count(*) FROM cart_lines WHERE cart_id = 'alice'") == ["0"])
        #expect(try rows(path, "SELECT line_count FROM carts WHERE id = 'alice'") == ["0"])
    }

    @Test("a next_position at the largest integer refuses a new line with one error and changes nothing")
    func nextPositionAtMaximum() throws {
        let directory = try TemporaryDirectory()
        let (path, service) = try aliceFile(in: directory, products: 2)
        try sqlite(path, "UPDATE carts SET next_position = 9223372036854775807 WHERE id = 'alice'")
        let snapshot = "SELECT c.id || ':' || c.version || ':' || c.line_count || ':' || c.next_position || ':' || "
            + "(SELECT group_concat(sku || '=' || quantity) FROM cart_lines WHERE cart_id = c.id) FROM carts AS c"
        let before = try rows(path, snapshot)
        #expect {
            try service.add("sku-1", to: "alice")
        } throws: { error in
            let text = String(describing: error)
            return error is DatabaseError && text.contains("no room for another line") && !text.contains("\n")
        }
        #expect(try rows(path, snapshot) == before)
        // An existing line still grows: it takes no new position.
        try service.add("sku-0", to: "alice")
        #expect(try service.cart("alice").totalItems == 2)
    }

    @Test("pruning in a unit that changed another cart's lines keeps that cart's line summary")
    func pruneKeepsOtherSummaries() throws {
        let directory = try TemporaryDirectory()
        let (path, _) = try aliceFile(in: directory, products: 2)
        let repository = try SQLiteCartRepository(path: path)
        try repository.write { storage in
            _ = try storage.lockCartLine(cartID: "alice", sku: "sku-1")
            try storage.setCartLine(cartID: "alice", sku: "sku-1", quantity: 1)
            // Before every cart's update time: deletes nothing, but forgets what the unit read.
            _ = try storage.deleteCarts(updatedBefore: Date(timeIntervalSince1970: 0))
        }
        #expect(try rows(path, "SELECT line_count FROM carts WHERE id = 'alice'") == ["2"])
        #expect(try rows(path, "SELECT count(*) FROM cart_lines WHERE cart_id = 'alice'") == ["2"])
    }

    @Test("db check names a cart whose line summary another client's writes made wrong")
    func integrityCheckFindsSummaryMismatch() throws {
        let directory = try TemporaryDirectory()
        let (path, _) = try aliceFile(in: directory, products: 2)
        let repository = try SQLiteCartRepository(path: path)
        #expect(try repository.integrityCheck() == ["ok"])
        try sqlite(path, "INSERT INTO cart_lines (cart_id, sku, quantity, position) VALUES ('alice', 'sku-1', 1, 7)")
        #expect(
            try repository.integrityCheck() == [
                "cart 'alice': its row counts 1 line, cart_lines holds 2",
                "cart 'alice': its next line position 2 is not above its last line's, 7",
            ])
    }

    @Test("clear deletes lines another client wrote behind the cart's back, and sets its summary right")
    func clearRepairsSummary() throws {
        let directory = try TemporaryDirectory()
        let (path, service) = try aliceFile(in: directory, products: 2)
        try service.clear("alice")
        let version = try service.cart("alice").version
        // Two lines the cart's row does not count: its summary says 0.
        try sqlite(
            path,
            "INSERT INTO cart_lines (cart_id, sku, quantity, position) VALUES ('alice', 'sku-0', 1, 5), ('alice', 'sku-1', 2, 6)")
        let repository = try SQLiteCartRepository(path: path)
        #expect(try repository.integrityCheck() != ["ok"])
        let update = try service.clear("alice")
        #expect(update.version == version + 1)
        #expect(try rows(path, "SELECT count(*) FROM cart_lines WHERE cart_id = 'alice'") == ["0"])
        #expect(try repository.integrityCheck() == ["ok"])
        // And an empty cart stays a no-op: no version bump.
        #expect(try service.clear("alice").version == version + 1)
    }

    @Test("a migration that the file's rows make fail is one line, and leaves the file byte for byte")
    func failingMigrationLeavesFileAlone() throws {
        let directory = try TemporaryDirectory()
        let path = try MigrationFixtureTests().restore("schema-0002-with-orders.sql", in: directory)
        // 0002's length() and GLOB stop at a NUL, so it let this SKU in; 0003 refuses it.
        try sqlite(path, "INSERT INTO products (sku, name, price) VALUES (CAST(x'610062' AS TEXT), 'NUL inside', 1)")
        let before = try contents(of: path)
        #expect(try rows(path, "PRAGMA journal_mode") == ["delete"])
        #expect {
            _ = try SQLiteCartRepository(path: path)
        } throws: { error in
            let text = String(describing: error)
            return error is MigrationError && text.hasPrefix("Migration 0003_cheaper_product_checks cannot be applied")
                && text.contains("CHECK constraint failed") && !text.contains("\n")
        }
        #expect(try contents(of: path) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: path + "-journal"))
    }
}
