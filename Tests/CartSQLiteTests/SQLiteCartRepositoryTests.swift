import CSQLite
import CartCore
import CartTestSupport
import CartSQLite
import Foundation
import Testing

@Suite("SQLite repository")
struct SQLiteCartRepositoryTests {
    @Test("a cart survives closing and reopening the file")
    func survivesReopen() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("cart.sqlite3")
        do {
            let service = CartService(repository: try SQLiteCartRepository(path: path), clock: fixedClock)
            try service.seedCatalog(count: 2)
            try service.add("sku-1", quantity: 3, to: "alice")
            try service.add("sku-0", to: "alice")
        }
        let reopened = CartService(repository: try SQLiteCartRepository(path: path), clock: fixedClock)
        let cart = try reopened.cart("alice")
        #expect(cart.lines.map(\.sku) == ["sku-1", "sku-0"])
        #expect(cart.totalItems == 4)
        #expect(cart.subtotal.minorUnits == 400)
        #expect(cart.version == 2)
    }

    @Test("settings out of range for a new file are refused as input, naming the setting, and leave no file")
    func invalidInitialSettings() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("cart.sqlite3")
        #expect(throws: CartError.invalidSetting(name: "Maximum line quantity", value: 0, range: StoreSettings.maxLineQuantityRange)) {
            _ = try SQLiteCartRepository(
                path: path, initialSettings: StoreSettings(currency: .usd, maxLineQuantity: 0, maxLinesPerCart: 5))
        }
        #expect(throws: CartError.invalidSetting(name: "Maximum lines per cart", value: 10_001, range: StoreSettings.maxLinesPerCartRange)) {
            _ = try SQLiteCartRepository(
                path: path, initialSettings: StoreSettings(currency: .usd, maxLineQuantity: 5, maxLinesPerCart: 10_001))
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        let service = CartService(repository: try SQLiteCartRepository(path: path))
        #expect(try service.settings() == .defaults)
    }

    @Test("a store opened with fewer than 1 connection is refused as input, not trapped on")
    func tooFewConnections() throws {
        let directory = try TemporaryDirectory()
        for count in [0, -1, Int.min] {
            let error = #expect(throws: CartError.self) {
                _ = try SQLiteCartRepository.backend.open(
                    directory.path("cart.sqlite3"), options: StoreOptions(maximumConnections: count))
            }
            #expect(error == .invalidSetting(name: "The number of connections", value: count, range: 1...Int.max))
            #expect(error?.description == "The number of connections must be at least 1; got \(count).")
        }
    }

    @Test("migrations apply once and are recorded with checksums")
    func migrationsApplyOnce() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("cart.sqlite3")
        let first = try SQLiteCartRepository(path: path)
        let status = try first.status()
        #expect(status.pendingMigrations.isEmpty)
        #expect(status.schemaVersion == status.appliedMigrations.count)
        #expect(status.appliedMigrations.first?.name == "0001_initial_schema")
        #expect(status.appliedMigrations.allSatisfy { $0.checksum.count == 64 })
        #expect(status.details.first { $0.key == "journalMode" }?.value == "wal")
        #expect(try first.migrate().isEmpty)
        let second = try SQLiteCartRepository(path: path)
        #expect(try second.status().appliedMigrations == status.appliedMigrations)
    }

    @Test("a database from a newer version is refused and left byte-identical")
    func newerDatabaseRefused() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("cart.sqlite3")
        do {
            let repository = try SQLiteCartRepository(path: path)
            try CartService(repository: repository).seedCatalog(count: 1)
        }
        try sqlite(path, "INSERT INTO schema_migrations VALUES (99, '0099_from_the_future', 'abc', 0)")
        let before = try contents(of: path)
        #expect {
            _ = try SQLiteCartRepository(path: path)
        } throws: { error in
            guard case MigrationError.unknownMigrations(let names) = error else { return false }
            return names == ["0099_from_the_future"]
        }
        #expect(try contents(of: path) == before)
    }

    @Test("a migration whose recorded checksum differs is refused and the file left as it was")
    func checksumMismatchRefused() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("cart.sqlite3")
        _ = try SQLiteCartRepository(path: path)
        try sqlite(path, "UPDATE schema_migrations SET checksum = 'changed' WHERE number = 1")
        let before = try contents(of: path)
        #expect(throws: MigrationError.self) { _ = try SQLiteCartRepository(path: path) }
        #expect(try contents(of: path) == before)
    }

    @Test("a record of migrations with a gap is refused as changed by hand, not as newer, and the file left as it was")
    func migrationRecordWithGap() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("cart.sqlite3")
        _ = try SQLiteCartRepository(path: path)
        try sqlite(path, "DELETE FROM schema_migrations WHERE number = 2")
        let before = try contents(of: path)
        #expect(throws: MigrationError.brokenHistory(missing: ["0002_orders"])) { _ = try SQLiteCartRepository(path: path) }
        #expect(try contents(of: path) == before)
    }

    @Test("a file that is not a database is refused and left byte-identical")
    func notADatabase() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("notes.sqlite3")
        let text = Data(String(repeating: "these are not the pages you are looking for\n", count: 200).utf8)
        try text.write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try SQLiteCartRepository(path: path)
        } throws: { error in
            (error as? DatabaseError)?.isNotADatabase == true
        }
        #expect(try contents(of: path) == text)
    }

    @Test("a file in a missing directory, or under a file, is refused naming the file and the cause")
    func missingDirectory() throws {
        let directory = try TemporaryDirectory()
        let missing = directory.path("nowhere/cart.sqlite3")
        #expect(throws: StoreLocationError.unusable(location: missing, reason: "its directory '\(directory.path("nowhere"))' does not exist")) {
            _ = try SQLiteCartRepository(path: missing)
        }
        let file = directory.path("notes.txt")
        try Data("notes".utf8).write(to: URL(fileURLWithPath: file))
        let underFile = file + "/cart.sqlite3"
        #expect(throws: StoreLocationError.unusable(location: underFile, reason: "'\(file)' is not a directory")) {
            _ = try SQLiteCartRepository(path: underFile)
        }
        let error = #expect(throws: StoreLocationError.self) { _ = try SQLiteCartRepository(path: missing) }
        #expect(error?.description == "'\(missing)' cannot hold a store: its directory '\(directory.path("nowhere"))' does not exist.")
        #expect(error?.reason == "its directory '\(directory.path("nowhere"))' does not exist")
        #expect(!FileManager.default.fileExists(atPath: directory.path("nowhere")))
    }

    @Test("a path under a '~' directory that does not exist is refused as the registry refuses it: no shell expanded it")
    func unexpandedHome() throws {
        let path = "~/cart-\(UInt64.random(in: 0 ... .max)).sqlite3"
        #expect(!FileManager.default.fileExists(atPath: "~"), "the test runs where no folder is named '~'")
        #expect(throws: StoreLocationError.unexpandedHome(location: path)) { _ = try SQLiteCartRepository(path: path) }
        #expect(throws: StoreLocationError.unexpandedHome(location: path)) {
            _ = try StoreRegistry([SQLiteCartRepository.backend]).open(path)
        }
    }

    @Test("another application's SQLite database is refused")
    func foreignDatabase() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("other.sqlite3")
        try sqlite(path, "CREATE TABLE players (name TEXT)")
        // Another tool's record of its migrations, with other columns, is not this build's.
        let records = directory.path("records.sqlite3")
        try sqlite(records, "CREATE TABLE schema_migrations (version TEXT PRIMARY KEY)")
        for path in [path, records] {
            let before = try contents(of: path)
            #expect {
                _ = try SQLiteCartRepository(path: path)
            } throws: { error in
                guard case MigrationError.foreignDatabase = error else { return false }
                return true
            }
            #expect(try contents(of: path) == before)
        }
    }

    @Test("CHECK constraints refuse nonsense written by another client")
    func checksRejectNonsense() throws {
        let directory = try TemporaryDirectory()
        let (path, service) = try aliceFile(in: directory)
        for bad in [
            "UPDATE cart_lines SET quantity = 0",
            "UPDATE cart_lines SET quantity = -3",
            "UPDATE products SET price = -1",
            "UPDATE products SET stock = -1",
            "UPDATE products SET price = 'free'",
            "INSERT INTO products (sku, name, price) VALUES ('', 'Empty', 1)",
            "INSERT INTO products (sku, name, price) VALUES ('caf\u{E9}', 'Café', 1)",
            "INSERT INTO products (sku, name, price) VALUES ('a' || char(0) || 'b', 'NUL', 1)",
            "INSERT INTO products (sku, name, price) VALUES (printf('%.65c', 'x'), 'Long', 1)",
            "INSERT INTO products (sku, name, price) VALUES ('nameless', '', 1)",
            "INSERT INTO products (sku, name, price) VALUES ('wordy', printf('%.201c', 'x'), 1)",
            "UPDATE products SET active = 2",
            "INSERT INTO cart_lines (cart_id, sku, quantity, position) VALUES ('alice', 'no-such-sku', 1, 9)",
            "UPDATE settings SET max_line_quantity = 0",
        ] {
            #expect(throws: DatabaseError.self, "\(bad)") { try sqlite(path, bad, foreignKeys: true) }
        }
        #expect(try service.cart("alice").totalItems == 1)
    }

    @Test("the sqlite3 shell's CHECKs refuse quantity = 0, a non-ASCII SKU, a leading high byte and a NUL-led name")
    func shellCheck() throws {
        let directory = try TemporaryDirectory()
        let (path, service) = try aliceFile(in: directory)
        for bad in [
            "UPDATE cart_lines SET quantity = 0",
            "INSERT INTO products (sku, name, price) VALUES ('caf\u{E9}', 'Café', 1)",
            "UPDATE products SET sku = 'sku-\u{2460}'",
            // Not UTF-8, led by a high byte; a leading space; a leading control character.
            "INSERT INTO products (sku, name, price) VALUES (CAST(x'F0414243' AS TEXT), 'High', 1)",
            "INSERT INTO products (sku, name, price) VALUES (' lead', 'Lead', 1)",
            "INSERT INTO products (sku, name, price) VALUES (char(9) || 'tab', 'Tab', 1)",
            // 4 bytes but length() 0: order_lines' CHECK would refuse it at every checkout.
            "INSERT INTO products (sku, name, price) VALUES ('nul-name', CAST(x'00616263' AS TEXT), 1)",
        ] {
            let (status, _, message) = try runProcess("/usr/bin/sqlite3", [path, bad])
            #expect(status != 0, "\(bad)")
            #expect(message.contains("CHECK constraint failed"), "\(bad)")
        }
        #expect(try service.cart("alice").totalItems == 1)
        #expect(try service.products().map(\.sku) == ["sku-0"])
    }

    @Test(
        "a SKU forced in as invalid UTF-8 never lets checkout skip a row silently: one error, nothing changed",
        arguments: ["5", "NULL"])
    func invalidUTF8SKUFailsCheckout(stock: String) throws {
        let directory = try TemporaryDirectory()
        let (path, service) = try aliceFile(in: directory)
        // 'caf' then a lone 0xE9: the CHECK cannot see it, and read back as "caf\u{FFFD}" its
        // key would no longer find the row.
        try sqlite(
            path,
            """
            INSERT INTO products (sku, name, price, active, stock) VALUES (CAST(x'636166E9' AS TEXT), 'Cafe', 100, 1, \(stock));
            INSERT INTO cart_lines (cart_id, sku, quantity, position) VALUES ('alice', CAST(x'636166E9' AS TEXT), 2, 2);
            """, foreignKeys: true)
        let before = try rows(path, "SELECT hex(sku) || ':' || ifnull(stock, '-') FROM products ORDER BY sku")
        let refused = StoredDataError("a text in the column 'sku' is not valid UTF-8")
        #expect(throws: refused) { try service.cart("alice") }
        #expect(throws: refused) { try service.checkout("alice") }
        #expect(try rows(path, "SELECT count(*) FROM orders") == ["0"])
        #expect(try rows(path, "SELECT count(*) FROM cart_lines WHERE cart_id = 'alice'") == ["2"])
        #expect(try rows(path, "SELECT hex(sku) || ':' || ifnull(stock, '-') FROM products ORDER BY sku") == before)
        #expect(try SQLiteCartRepository(path: path).check().contains("the SKU of product 'caf\u{FFFD}' is not valid UTF-8"))
    }

    @Test("text with a NUL inside is stored whole, and text without one exactly")
    func textWithNULRoundTrips() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("cart.sqlite3")
        let repository = try SQLiteCartRepository(path: path)
        // The storage stores what it is given; the service is what refuses such names.
        for (index, name) in ["a\u{0}b", "a\u{0}", "€", "plain"].enumerated() {
            let product = Product(sku: "sku-\(index)", name: name, price: Money(minorUnits: 1, currency: .usd))
            try repository.write { storage in try storage.insertProduct(product) }
            let stored = try SQLiteCartRepository(path: path).read { storage in try storage.product(sku: product.sku) }
            #expect(stored?.name == name)
        }
    }

    @Test("an in-memory SQLite database works as a backend")
    func inMemoryDatabase() throws {
        let service = CartService(repository: try SQLiteCartRepository.inMemory(), clock: fixedClock)
        try service.seedCatalog(count: 1)
        try service.add("sku-0", quantity: 2, to: "bob")
        #expect(try service.cart("bob").totalItems == 2)
    }

    @Test("migration checksums are the SHA-256 of the shipped .sql files (checked against sha256sum)")
    func checksumsMatchSha256sum() throws {
        let directory = try TemporaryDirectory()
        let repository = try SQLiteCartRepository(path: directory.path("cart.sqlite3"))
        let applied = try repository.status().appliedMigrations
        let migrationsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Migrations/SQLite")
        for migration in applied {
            let file = migrationsDirectory.appendingPathComponent(migration.name + ".sql")
            let (_, output, _) = try runProcess("/usr/bin/sha256sum", [file.path])
            let digest = output.prefix(64)
            #expect(String(digest) == migration.checksum)
        }
    }
}

/// Runs SQL through a separate raw connection, as another client would.
func sqlite(_ path: String, _ sql: String, foreignKeys: Bool = false) throws {
    var handle: OpaquePointer?
    guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let handle
    else { throw DatabaseError(extendedResultCode: SQLITE_CANTOPEN, message: "cannot open \(path)") }
    defer { sqlite3_close_v2(handle) }
    let script = (foreignKeys ? "PRAGMA foreign_keys = ON; " : "") + sql
    guard sqlite3_exec(handle, script, nil, nil, nil) == SQLITE_OK else {
        throw DatabaseError(
            extendedResultCode: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)),
            sql: sql)
    }
}

/// One column (the first by default) of every row `sql` returns, as text, read through a
/// separate connection.
func rows(_ path: String, _ sql: String, column: Int32 = 0) throws -> [String] {
    var handle: OpaquePointer?
    guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let handle else {
        throw DatabaseError(extendedResultCode: SQLITE_CANTOPEN, message: "cannot open \(path)")
    }
    defer { sqlite3_close_v2(handle) }
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
        throw DatabaseError(extendedResultCode: sqlite3_errcode(handle), message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }
    defer { sqlite3_finalize(statement) }
    var result: [String] = []
    while sqlite3_step(statement) == SQLITE_ROW {
        result.append(sqlite3_column_text(statement, column).map { String(cString: $0) } ?? "NULL")
    }
    return result
}
