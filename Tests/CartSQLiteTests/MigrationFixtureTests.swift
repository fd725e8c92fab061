import CartCore
import CartTestSupport
import CartSQLite
import Foundation
import Testing

/// Databases written by earlier schemas, kept as `sqlite3 .dump` text in `Fixtures/`, must
/// open with this build with every cart and order intact. Each new migration keeps these
/// passing; add a fixture for each released schema.
@Suite("Upgrading databases written by earlier schemas")
struct MigrationFixtureTests {
    /// A database file restored from a fixture dump.
    func restore(_ fixture: String, in directory: TemporaryDirectory) throws -> String {
        let dump = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures").appendingPathComponent(fixture)
        let path = directory.path("restored.sqlite3")
        try sqlite(path, try String(contentsOf: dump, encoding: .utf8))
        return path
    }

    @Test("a schema-0001 database with carts upgrades to the current schema with its data intact")
    func upgradesFromFirstSchema() throws {
        let directory = try TemporaryDirectory()
        let path = try restore("schema-0001-with-carts.sql", in: directory)
        let repository = try SQLiteCartRepository(path: path)
        let status = try repository.status()
        #expect(status.pendingMigrations.isEmpty)
        #expect(status.appliedMigrations.map(\.name).prefix(2) == ["0001_initial_schema", "0002_orders"])

        let service = CartService(repository: repository, clock: fixedClock)
        #expect(try service.settings() == StoreSettings(currency: .eur, maxLineQuantity: 50, maxLinesPerCart: 20))
        let alice = try service.cart("alice")
        #expect(alice.version == 3)
        #expect(alice.lines.map(\.sku) == ["pear", "apple"])
        #expect(alice.lines.map(\.quantity) == [2, 5])
        #expect(alice.subtotal.decimalString == "8.43")
        #expect(try service.cart("bob").lines.map(\.sku) == ["fig"])
        #expect(try service.cart("carol").version == 2)
        #expect(try service.product("fig").isActive == false)
        #expect(try service.product("pear").stock == 12)

        let order = try service.checkout("alice").order
        #expect(order.number == 1)
        #expect(order.total.decimalString == "8.43")
        #expect(try service.product("pear").stock == 10)
    }

    @Test("a schema-0002 database with orders opens with every order, line and cart intact")
    func opensSecondSchema() throws {
        let directory = try TemporaryDirectory()
        let path = try restore("schema-0002-with-orders.sql", in: directory)
        let service = CartService(repository: try SQLiteCartRepository(path: path), clock: fixedClock)

        let first = try service.order(1)
        #expect(first.cartID == "alice")
        #expect(first.idempotencyKey == "alice-1")
        #expect(first.lines.map(\.sku) == ["pear", "apple"])
        #expect(first.lines.map(\.name) == ["Pear", "Apple"])
        #expect(first.lines.map(\.unitPrice.decimalString) == ["0.99", "1.29"])
        #expect(first.total.decimalString == "8.43")
        #expect(UTCCalendar.iso8601(first.placedAt) == "2026-12-23T04:28:40Z")
        let second = try service.order(2)
        #expect(second.total.decimalString == "8.29")
        #expect(second.totalItems == 3)

        #expect(try service.cart("alice").lines.map(\.unitPrice.decimalString) == ["1.49"])
        #expect(try service.cart("carol").totalItems == 3)
        #expect(try service.product("pear").stock == 10)
        #expect(try service.product("fig").stock == 1)

        let replay = try service.checkout("alice", idempotencyKey: "alice-1")
        #expect(replay.replayed && replay.order == first)
        #expect(try service.checkout("carol").order.number == 3)
    }

    @Test("0003 rebuilds products with the cheaper CHECKs, keeping every row and cart_lines' reference")
    func rebuildsProducts() throws {
        let directory = try TemporaryDirectory()
        let path = try restore("schema-0002-with-orders.sql", in: directory)
        let productsBefore = try rows(path, "SELECT sku || '|' || name || '|' || price || '|' || active || '|' || ifnull(stock, '-') FROM products ORDER BY sku")
        let repository = try SQLiteCartRepository(path: path)
        #expect(try repository.status().appliedMigrations.map(\.name).suffix(2) == ["0003_cheaper_product_checks", "0004_store_secret"])

        #expect(try rows(path, "SELECT sku || '|' || name || '|' || price || '|' || active || '|' || ifnull(stock, '-') FROM products ORDER BY sku") == productsBefore)
        #expect(try rows(path, "SELECT name FROM sqlite_schema WHERE name LIKE 'products%'") == ["products"])
        #expect(try rows(path, "SELECT sql FROM sqlite_schema WHERE name = 'products'").first?.contains("CAST(sku AS BLOB)") == true)
        #expect(try rows(path, "PRAGMA foreign_key_check").isEmpty)
        #expect(try rows(path, "PRAGMA integrity_check") == ["ok"])
        // cart_lines still references the rebuilt table, for another client and for this one.
        #expect(throws: DatabaseError.self) {
            try sqlite(path, "INSERT INTO cart_lines (cart_id, sku, quantity, position) VALUES ('alice', 'ghost', 1, 9)", foreignKeys: true)
        }
        #expect(throws: DatabaseError.self) {
            try repository.write { storage in try storage.insertCartLine(cartID: "alice", sku: "ghost", quantity: 1, position: 99) }
        }
        let service = CartService(repository: repository, clock: fixedClock)
        try service.add("pear", to: "alice")
        #expect(try service.cart("alice").lines.map(\.sku) == ["apple", "pear"])
    }

    @Test("every product row 0002's CHECKs allow, however odd, survives 0003's rebuild")
    func rebuildKeepsEveryRowTheOldChecksAllowed() throws {
        let directory = try TemporaryDirectory()
        let path = try restore("schema-0002-with-orders.sql", in: directory)
        // Written by another client under 0002: its trim() refused only spaces, and it counted
        // characters, not bytes.
        try sqlite(
            path,
            """
            INSERT INTO products (sku, name, price, active, stock) VALUES
                ('!' || printf('%.62c', 'x') || '~', char(9) || 'Tab-led name', 0, 0, 0),
                ('wide', printf('%.200c', 'x'), 100000000, 1, NULL),
                ('accents', replace(printf('%.200c', 'x'), 'x', char(233)), 1, 1, 3);
            """)
        let before = try rows(path, "SELECT sku || '|' || hex(name) || '|' || price || '|' || active || '|' || ifnull(stock, '-') FROM products ORDER BY sku")
        let repository = try SQLiteCartRepository(path: path)
        #expect(try repository.status().pendingMigrations.isEmpty)
        #expect(try rows(path, "SELECT sku || '|' || hex(name) || '|' || price || '|' || active || '|' || ifnull(stock, '-') FROM products ORDER BY sku") == before)
        #expect(try rows(path, "SELECT length(name) || '/' || length(CAST(name AS BLOB)) FROM products WHERE sku = 'accents'") == ["200/400"])
    }

    @Test("an explicit migrate() on a connection with foreign keys on leaves them on")
    func explicitMigrateKeepsForeignKeys() throws {
        let directory = try TemporaryDirectory()
        let path = try restore("schema-0002-with-orders.sql", in: directory)
        let repository = try SQLiteCartRepository(path: path, migrate: false)
        #expect(try repository.status().pendingMigrations == ["0003_cheaper_product_checks", "0004_store_secret"])
        #expect(try repository.migrate() == ["0003_cheaper_product_checks", "0004_store_secret"])
        #expect(throws: DatabaseError.self) {
            try repository.write { storage in try storage.insertCartLine(cartID: "alice", sku: "ghost", quantity: 1, position: 99) }
        }
    }

    @Test("a migration that would leave a dangling reference is refused and nothing is applied")
    func danglingReferenceRollsBack() throws {
        let directory = try TemporaryDirectory()
        let path = try restore("schema-0002-with-orders.sql", in: directory)
        // Another client, with foreign keys off, leaves a line whose product does not exist.
        try sqlite(path, "INSERT INTO cart_lines (cart_id, sku, quantity, position) VALUES ('alice', 'ghost', 1, 9)")
        let schemaBefore = try rows(path, "SELECT sql FROM sqlite_schema ORDER BY name")
        let bytesBefore = try contents(of: path)

        #expect {
            _ = try SQLiteCartRepository(path: path)
        } throws: { error in
            guard case MigrationError.danglingReferences(let references) = error else { return false }
            return references == ["cart_lines -> products: 1"]
        }
        #expect(try rows(path, "SELECT sql FROM sqlite_schema ORDER BY name") == schemaBefore)
        // Refused by a read before the file is switched to WAL: not a byte changed.
        #expect(try contents(of: path) == bytesBefore)
        #expect(try rows(path, "SELECT name FROM schema_migrations ORDER BY number") == ["0001_initial_schema", "0002_orders"])
        #expect(try rows(path, "SELECT sku FROM cart_lines WHERE cart_id = 'alice' ORDER BY position") == ["apple", "ghost"])
    }

    @Test("a failing explicit migrate() leaves foreign keys on, and says how to find the rows")
    func failedMigrateKeepsForeignKeys() throws {
        let directory = try TemporaryDirectory()
        let path = try restore("schema-0002-with-orders.sql", in: directory)
        try sqlite(path, "INSERT INTO cart_lines (cart_id, sku, quantity, position) VALUES ('alice', 'ghost', 1, 9)")
        let repository = try SQLiteCartRepository(path: path, migrate: false)
        #expect {
            try repository.migrate()
        } throws: { error in
            guard case MigrationError.danglingReferences = error else { return false }
            return String(describing: error).contains("referencing nothing")
        }
        // The line was written behind the cart's back, so its row's line summary is off too.
        #expect(
            try repository.check() == [
                "foreign key violation: cart_lines (sku) = ('ghost') references no row of products",
                "cart 'alice': its row counts 1 line, cart_lines holds 2",
                "cart 'alice': its next line position 2 is not above its last line's, 9",
            ])
        #expect(throws: DatabaseError.self) {
            try repository.write { storage in
                try storage.insertCartLine(cartID: "bob", sku: "phantom", quantity: 1, position: 1)
                try storage.saveCartHeader(
                    CartHeader(id: "bob", version: 1, updatedAt: fixedClock(), lineCount: 1, nextLinePosition: 2),
                    previousVersion: nil)
            }
        }
        #expect(try rows(path, "SELECT count(*) FROM cart_lines WHERE sku = 'phantom'") == ["0"])
    }
}
