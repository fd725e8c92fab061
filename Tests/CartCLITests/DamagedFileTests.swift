import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Damaged and unusual database files: each is refused (or, for an empty file, created) with
/// one clear line and the right exit status, and a refused file keeps every byte (its SHA-256
/// is compared before and after).
///
/// Also here, in `EndToEndDatabaseTests`: a file that is not a database, a newer version's
/// database, a directory given as the database, and a missing directory being created.
@Suite("cart binary: damaged and unusual database files")
struct DamagedFileTests {
    /// A database with products, two orders and a cart holding tea.
    func filledSandbox() throws -> CartSandbox {
        let sandbox = try CartSandbox()
        try sandbox.ok("demo")
        for _ in 0..<2 {
            try sandbox.ok("add", "apple", "2")
            try sandbox.ok("checkout")
        }
        try sandbox.ok("add", "tea")
        return sandbox
    }

    /// A sandbox whose store is at schema version 2, with carts and orders: two migrations pending.
    func olderSchemaSandbox() throws -> CartSandbox {
        let sandbox = try CartSandbox()
        let fixture = CartSandbox.packageRoot().appendingPathComponent("Tests/CartSQLiteTests/Fixtures/schema-0002-with-orders.sql")
        try FileManager.default.createDirectory(atPath: sandbox.path("data"), withIntermediateDirectories: true)
        _ = try sandbox.sqlite3(".read '\(fixture.path)'")
        return sandbox
    }

    /// Commands that only read, and commands that write.
    static let reads = [
        ["show"], ["products"], ["orders"], ["orders", "show", "1"], ["db", "status"], ["db", "check"],
    ]
    static let writes = [
        ["add", "apple"], ["remove", "tea"], ["checkout"], ["clear"],
        ["products", "add", "x", "--name", "X", "--price", "1"],
    ]

    @Test(
        "a truncated database is refused by every command in one line and keeps every byte",
        arguments: [1000, 4096, 0])
    func truncated(keeping bytes: Int) throws {
        let sandbox = try filledSandbox()
        let size = try FileManager.default.attributesOfItem(atPath: sandbox.database)[.size] as? Int ?? 0
        // 0 stands for "all but the last page".
        #expect(truncate(sandbox.database, off_t(bytes == 0 ? size - 4096 : bytes)) == 0)
        let before = try sandbox.checksum(sandbox.database)
        for arguments in Self.reads + Self.writes + [["db", "migrate"]] where arguments != ["db", "check"] {
            let result = try sandbox.run(arguments)
            #expect(result.status == 1, "\(arguments) \(result)")
            // SQLite says "damaged" or "not a database" depending on where the file ends.
            let reasons = ["the database file is damaged", "the file is not a SQLite database"]
            #expect(
                reasons.contains { result.stderr == "Error: '\(sandbox.database)' cannot be read as a cart store: \($0).\n" },
                "\(arguments) \(result.stderr)")
        }
        // The check lists the damage it finds, and fails.
        let check = try sandbox.run("db", "check", "--json")
        #expect(check.status == 1 && check.stderr.hasPrefix("Error: The check found "), "\(check)")
        #expect(check.stdout.hasPrefix(#"{"ok":false,"problems":["#), "\(check)")
        #expect(try sandbox.checksum(sandbox.database) == before)
    }

    @Test("a page damaged in the middle: db check lists what SQLite found and where its check stopped")
    func damagedPage() throws {
        let sandbox = try filledSandbox()
        for index in 0..<300 { try sandbox.ok("products", "add", "p\(index)", "--name", "Product \(index)", "--price", "1") }
        let size = try FileManager.default.attributesOfItem(atPath: sandbox.database)[.size] as? Int ?? 0
        let file = try #require(FileHandle(forUpdatingAtPath: sandbox.database))
        try file.seek(toOffset: UInt64(size / 2 / 4096 * 4096))
        try file.write(contentsOf: Data(repeating: 0xA5, count: 4096))
        try file.close()
        let check = try sandbox.run("db", "check", "--json")
        #expect(check.status == 1, "\(check)")
        #expect(check.stdout.hasPrefix(#"{"ok":false,"problems":["#), "\(check)")
        #expect(check.stderr.hasPrefix("Error: The check found "), "\(check)")
        let text = try sandbox.run("db", "check")
        #expect(text.status == 1 && !text.stdout.isEmpty, "\(text)")
    }

    @Test("an empty file is a database not created yet: status, check and reads leave it, the first change creates it")
    func emptyFile() throws {
        let sandbox = try CartSandbox()
        try FileManager.default.createDirectory(atPath: sandbox.path("data"), withIntermediateDirectories: true)
        try sandbox.write("data/cart.sqlite3", [])
        #expect(try sandbox.ok("db", "status").stdout.hasPrefix("No store at '\(sandbox.database)' yet;"))
        let check = try sandbox.run("db", "check")
        #expect(
            check.status == 1
                && check.stderr == "Error: No store at '\(sandbox.database)' yet; there is nothing to check.\n")
        let show = try sandbox.run("show")
        #expect(
            show.status == 1
                && show.stderr == "Error: No store at '\(sandbox.database)' yet; 'cart db init' creates it, as do 'cart demo', 'cart products add', 'cart products import', 'cart db migrate', 'cart db copy --to' and 'cart serve'.\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.database)).isEmpty)
        #expect(try sandbox.ok("db", "init").stdout.hasPrefix("Created "))
        #expect(try sandbox.ok("db", "status").stdout.contains("Schema:       version 4\n"))
        #expect(try sandbox.ok("db", "check").stdout == "ok\n")
    }

    @Test("a SQLite file without tables is a database not created yet too, as an empty PostgreSQL schema is")
    func fileWithoutTables() throws {
        let sandbox = try CartSandbox()
        let path = sandbox.path("header.sqlite3")
        try sandbox.sql("PRAGMA user_version = 7", on: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(!before.isEmpty)
        #expect(try sandbox.ok("--db", path, "db", "status").stdout.hasPrefix("No store at '\(path)' yet;"))
        let check = try sandbox.run("--db", path, "db", "check")
        #expect(check.status == 1 && check.stderr == "Error: No store at '\(path)' yet; there is nothing to check.\n", "\(check)")
        for arguments in [["show"], ["add", "apple"], ["products"]] {
            let result = try sandbox.run(["--db", path] + arguments)
            #expect(
                result.status == 1
                    && result.stderr == "Error: No store at '\(path)' yet; 'cart db init' creates it, as do 'cart demo', 'cart products add', 'cart products import', 'cart db migrate', 'cart db copy --to' and 'cart serve'.\n",
                "\(arguments) \(result)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try sandbox.ok("--db", path, "db", "init").stdout.hasPrefix("Created "))
        #expect(try sandbox.ok("--db", path, "db", "check").stdout == "ok\n")
    }

    @Test("db status shows what it can of a store whose settings another client damaged, then fails naming them")
    func statusWithDamagedSettings() throws {
        let sandbox = try filledSandbox()
        let damages = [
            ("PRAGMA ignore_check_constraints = ON; UPDATE settings SET currency_exponent = 3", "is stored with 3 minor-unit digits"),
            ("DELETE FROM settings", "the store has no settings row"),
        ]
        for (sql, reason) in damages {
            try sandbox.sqlite3(sql)
            for json in [false, true] {
                let status = try sandbox.run(["db", "status"] + (json ? ["--json"] : []))
                #expect(status.status == 1 && status.errorLines.count == 1 && status.stderr.contains(reason), "\(status)")
                #expect(status.stdout.contains(json ? #""schemaVersion":4"# : "Schema:       version 4\n"), "\(status)")
                #expect(status.stdout.contains(json ? #""products":"# : "Products:"), "\(status)")
                #expect(!status.stdout.contains(json ? #""settings""# : "Currency:"), "\(status)")
            }
        }
    }

    @Test("terminal escapes another client stored in a name, a cart ID or a migration name reach the terminal escaped")
    func storedEscapes() throws {
        let sandbox = try filledSandbox()
        try sandbox.sqlite3(
            """
            UPDATE products SET name = 'Apple ' || char(27) || ']0;title' || char(7) || char(27) || '[2J' WHERE sku = 'apple';
            PRAGMA ignore_check_constraints = ON;
            UPDATE orders SET cart_id = char(27) || '[31mx' WHERE number = 1;
            """)
        let escapedName = "Apple \\u{1B}]0;title\\u{07}\\u{1B}[2J"
        #expect(try sandbox.ok("products", "show", "apple").stdout.contains("Name:    \(escapedName)\n"))
        let update = try sandbox.run("products", "update", "apple", "--price", "1.30")
        #expect(update.status == 1, "\(update)")
        let finding = "the name of product 'apple' is '\(escapedName)': it contains control characters"
        #expect(update.stderr.contains("holds a value this version cannot use: \(finding). 'cart db check' lists"), "\(update)")
        #expect(update.errorLines.count == 1)
        let check = try sandbox.run("db", "check")
        #expect(check.status == 1 && check.stdout.contains(finding + "\n"), "\(check)")
        #expect(try sandbox.ok("products", "update", "apple", "--name", "Apple").stdout.hasPrefix("Updated apple (Apple) at $"))
        try sandbox.sqlite3("UPDATE products SET name = 'Dark ' || char(27) || ']0;title' || char(7) WHERE sku = 'chocolate'")
        let deleted = try sandbox.ok("products", "delete", "chocolate").stdout
        #expect(deleted.hasPrefix("Deleted chocolate (Dark \\u{1B}]0;title\\u{07}) at $"), "\(deleted)")
        #expect(!deleted.contains("\u{1B}"))
        #expect(try sandbox.ok("orders", "show", "1").stdout.contains("cart '\\u{1B}[31mx'"))
        try sandbox.sqlite3("INSERT INTO schema_migrations VALUES (99, '0099_' || char(27) || ']0;pwn' || char(7), 'x', 0)")
        let result = try sandbox.run("show")
        #expect(result.status == 1)
        #expect(result.stderr.contains("holds '0099_\\u{1B}]0;pwn\\u{07}', which names no migration"), "\(result)")
        for output in [result.stdout, result.stderr] { #expect(!output.contains("\u{1B}")) }
    }

    @Test("a name with a NUL another client stored: show and checkout name it as a problem, export refuses, the file is kept")
    func storedNameWithNul() throws {
        let sandbox = try filledSandbox()
        try sandbox.sqlite3("UPDATE products SET name = 'Te' || char(0) || 'a' WHERE sku = 'tea'")
        let before = try sandbox.checksum(sandbox.database)
        let problem = "'tea': the store holds the name 'Te\\0a' for it, which no product can have (it contains control characters); "
            + "rename the product."
        #expect(try sandbox.ok("show").stdout.contains("  ! \(problem)\n"))
        let checkout = try sandbox.run("checkout")
        #expect(checkout.status == 1 && checkout.errorLines.count == 1, "\(checkout)")
        #expect(checkout.stderr.contains("cannot be checked out: \(problem)"), "\(checkout)")
        let export = sandbox.path("catalog.csv")
        let exported = try sandbox.run("products", "export", export)
        #expect(exported.status == 1, "\(exported)")
        let finding = "the name of product 'tea' is 'Te\\0a': it contains control characters"
        #expect(exported.stderr.contains("holds a value this version cannot use: \(finding). 'cart db check' lists"), "\(exported)")
        #expect(!FileManager.default.fileExists(atPath: export))
        #expect(try sandbox.checksum(sandbox.database) == before)
        try sandbox.ok("products", "update", "tea", "--name", "Tea")
        #expect(try sandbox.ok("checkout").stdout.hasPrefix("Placed order #3"))
    }

    @Test("a SKU with surrounding space another client stored: db check names it, export refuses it, no hint offers it")
    func storedSKUWithSurroundingSpace() throws {
        let sandbox = try filledSandbox()
        try sandbox.sqlite3("INSERT INTO products (sku, name, price, active, stock) VALUES ('trail ', 'Trail', 100, 1, NULL)")
        let before = try sandbox.checksum(sandbox.database)
        let finding = "the SKU of a product is 'trail ': it has leading or trailing space"
        let check = try sandbox.run("db", "check")
        #expect(check.status == 1 && check.stdout.contains(finding), "\(check)")
        let export = sandbox.path("catalog.csv")
        let exported = try sandbox.run("products", "export", export)
        #expect(exported.status == 1 && exported.errorLines.count == 1, "\(exported)")
        #expect(exported.stderr.contains("holds a value this version cannot use: \(finding). 'cart db check' lists"), "\(exported)")
        #expect(!FileManager.default.fileExists(atPath: export))
        // A lookup trims what is typed, so the stored SKU is no suggestion.
        let shown = try sandbox.run("products", "show", "trail ")
        #expect(shown.errorLines.first == "Error: No product with SKU 'trail'.", "\(shown)")
        #expect(try sandbox.checksum(sandbox.database) == before)
    }

    @Test("a name an earlier version let in (a noncharacter, only a blank) stays through updates, and export asks to rename it")
    func nameImportRefuses() throws {
        let sandbox = try filledSandbox()
        try sandbox.sqlite3("INSERT INTO products (sku, name, price, active, stock) VALUES ('gift', 'Gift' || char(64976), 100, 1, NULL)")
        #expect(try sandbox.ok("products", "update", "gift", "--price", "2").stdout.hasPrefix("Updated gift (Gift\\u{FDD0}) at $2.00"))
        #expect(try sandbox.ok("db", "check").stdout == "ok\n", "a name the store can keep")
        let export = sandbox.path("catalog.csv")
        let exported = try sandbox.run("products", "export", export)
        #expect(exported.status == 1 && exported.errorLines.count == 1, "\(exported)")
        let refusal = "Error: The name of product 'gift', 'Gift\\u{FDD0}', is one an import refuses (it contains noncharacters); "
            + "rename it first, with products update --name."
        #expect(exported.errorLines.first.map(String.init) == refusal, "\(exported)")
        #expect(!FileManager.default.fileExists(atPath: export))
        try sandbox.ok("products", "update", "gift", "--name", "Gift")
        try sandbox.ok("products", "export", export)
    }

    @Test("db check says SQLite's line for the rows that break a CHECK once, with their count, and names each value")
    func repeatedCheckLinesCounted() throws {
        let sandbox = try filledSandbox()
        try sandbox.sqlite3(
            "PRAGMA ignore_check_constraints = ON; UPDATE products SET price = -5 WHERE sku = 'apple'; "
                + "UPDATE products SET stock = -1 WHERE sku = 'tea'")
        let check = try sandbox.run("db", "check")
        #expect(check.status == 1)
        #expect(
            check.stdout
                == "CHECK constraint failed in products (2 times)\nthe price of product 'apple' is -5, below 0\n"
                + "the stock of product 'tea' is -1, below 0\n", "\(check)")
        #expect(check.errorLines == ["Error: The check found 3 problems in '\(sandbox.database)'."])
    }

    @Test("a line count another client made wrong is named when it would refuse a new line, not taken for the cap")
    func wrongLineCount() throws {
        let sandbox = try filledSandbox()
        try sandbox.sqlite3("UPDATE carts SET line_count = 150 WHERE id = 'default'")
        let before = try sandbox.checksum(sandbox.database)
        let refused = try sandbox.run("add", "apple")
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains(
                "holds a value this version cannot use: cart 'default' counts 150 lines in its row, but holds 1. 'cart db check' lists"),
            "\(refused)")
        #expect(try sandbox.checksum(sandbox.database) == before)
        #expect(try sandbox.ok("add", "tea").stdout.hasPrefix("Added 1 × tea"), "a line the cart holds still changes")
        // A cap lowered below what a cart holds still refuses in the cap's words.
        try sandbox.sqlite3("UPDATE carts SET line_count = 1 WHERE id = 'default'")
        try sandbox.ok("db", "init", "--max-lines", "1")
        #expect(try sandbox.run("add", "apple").stderr == "Error: Cart 'default' cannot take another line: a cart holds at most 1 line.\n")
    }

    @Test("a cart line another client gave a quantity out of range: carts marks its cart, set and delete mend the line")
    func lineQuantityOutOfRange() throws {
        let sandbox = try filledSandbox()
        try sandbox.ok("add", "apple", "2")
        try sandbox.ok("add", "tea", "--cart", "bob")
        func damage(_ quantity: Int) throws {
            try sandbox.sqlite3(
                "PRAGMA ignore_check_constraints = ON; UPDATE cart_lines SET quantity = \(quantity) WHERE cart_id = 'default' AND sku = 'tea'")
        }
        try damage(-1)
        let before = try sandbox.checksum(sandbox.database)
        let refused = try sandbox.run("add", "tea")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("cannot use: the quantity of 'tea' in cart 'default' is -1, below 1."), "\(refused)")
        #expect(try sandbox.checksum(sandbox.database) == before)

        let listed = try sandbox.ok("carts").stdout.split(separator: "\n").map(String.init)
        #expect(listed.count == 5, "\(listed)")
        #expect(listed.first?.hasPrefix("   CART     LINES  ITEMS  VERSION  UPDATED") == true, "\(listed)")
        #expect(listed.dropFirst().first?.hasPrefix("   bob          1      1") == true, "\(listed)")
        #expect(listed.dropFirst(2).first?.hasPrefix("!  default      2      ?") == true, "\(listed)")
        #expect(
            listed.dropFirst(3).first
                == "A cart holds a line whose quantity this version cannot use; setting or deleting that line, or clearing the cart, mends it:")
        #expect(listed.last?.hasPrefix("  ! 'default': a line's quantity is -1, below 1; to see which line: ") == true)
        #expect(listed.last?.hasSuffix(" --cart default show") == true, "\(listed)")
        let json = try sandbox.ok("carts", "--json").stdout
        #expect(json.contains(#"{"cart":"default","lines":2,"problem":"a line's quantity is -1, below 1","totalItems":null,"updatedAt":"#))

        #expect(try sandbox.ok("set", "tea", "3").stdout.hasPrefix("Set tea to 3 units (cart 'default', version "))
        #expect(try sandbox.ok("show").stdout.contains("5 items"))
        try damage(2_000_000)
        #expect(try sandbox.ok("delete", "tea").stdout.hasPrefix("Removed tea from the cart (cart 'default'"))
        try sandbox.ok("add", "tea")
        try damage(0)
        #expect(try sandbox.ok("set", "tea", "0").stdout.hasPrefix("Removed tea from the cart (cart 'default'"))
        #expect(try sandbox.ok("db", "check").stdout == "ok\n")
        #expect(!(try sandbox.ok("carts").stdout.contains("?")))
    }

    @Test("a store secret another client damaged: db check lists it, and serve refuses to start in one line")
    func damagedSecret() throws {
        let sandbox = try filledSandbox()
        try sandbox.sqlite3("PRAGMA ignore_check_constraints = ON; INSERT INTO store_secret (id, secret) VALUES (1, 'zz')")
        let check = try sandbox.run("db", "check")
        #expect(
            check.status == 1
                && check.stdout == "CHECK constraint failed in store_secret\nthe store secret is not 64 lowercase hex digits\n",
            "\(check)")
        let serve = try sandbox.run("serve", "--listen", "127.0.0.1:0")
        #expect(serve.status == 1, "\(serve)")
        #expect(serve.stderr.contains("holds a value this version cannot use: the store secret is not 64 lowercase hex digits."), "\(serve)")
    }

    @Test("a migration whose checksum changed is refused in one line, db check finds it, and the file keeps every byte")
    func changedMigration() throws {
        let sandbox = try filledSandbox()
        try sandbox.sqlite3("UPDATE schema_migrations SET checksum = 'edited' WHERE number = 1")
        let before = try sandbox.checksum(sandbox.database)
        for arguments in Self.reads.filter({ $0 != ["db", "check"] }) + Self.writes + [["db", "migrate"]] {
            let result = try sandbox.run(arguments)
            #expect(result.status == 1, "\(arguments) \(result)")
            #expect(
                result.stderr.hasPrefix("Error: Cannot use '\(sandbox.database)': migration 0001_initial_schema")
                    && result.errorLines.count == 1 && result.stderr.split(separator: "\n").count == 1,
                "\(arguments) \(result)")
        }
        let check = try sandbox.run("db", "check")
        #expect(check.status == 1 && check.stderr == "Error: The check found 1 problem in '\(sandbox.database)'.\n")
        #expect(check.stdout.hasPrefix("it cannot be read as a cart store: migration 0001_initial_schema recorded"))
        let json = try sandbox.run("db", "check", "--json")
        #expect(json.stdout.hasPrefix(#"{"ok":false,"problems":["it cannot be read as a cart store: migration 0001_initial_schema"#))
        #expect(try sandbox.checksum(sandbox.database) == before)
    }

    @Test("db check names the tables, indexes and triggers the schema lacks or holds changed, and keeps every byte")
    func changedSchema() throws {
        let sandbox = try filledSandbox()
        #expect(try sandbox.run("db", "check").stdout == "ok\n")
        try sandbox.sqlite3("DROP INDEX orders_by_idempotency_key")
        try sandbox.sqlite3("ALTER TABLE products ADD COLUMN colour TEXT")
        try sandbox.sqlite3("CREATE INDEX products_by_name ON products (name)")
        let before = try sandbox.checksum(sandbox.database)
        let check = try sandbox.run("db", "check")
        #expect(check.status == 1 && check.stderr == "Error: The check found 2 problems in '\(sandbox.database)'.\n")
        #expect(
            check.stdout == "index orders_by_idempotency_key is missing: the schema was changed outside cart\n"
                + "table products is not as the migrations made it: the schema was changed outside cart\n",
            "an index of another client's own is not a problem")
        #expect(try sandbox.checksum(sandbox.database) == before)
        // A table gone: the checks that read it cannot run, and what they can still read is listed.
        try sandbox.sqlite3("PRAGMA foreign_keys = OFF; DROP TABLE order_lines")
        let dropped = try sandbox.checksum(sandbox.database)
        let gone = try sandbox.run("db", "check", "--json")
        #expect(gone.status == 1)
        #expect(gone.stdout.contains(#""table order_lines is missing: the schema was changed outside cart""#), "\(gone)")
        #expect(try sandbox.checksum(sandbox.database) == dropped)
    }

    @Test("db migrate does not call a schema changed outside cart up to date: one Error line pointing to db check, exit 1")
    func migrateChangedSchema() throws {
        let sandbox = try filledSandbox()
        try sandbox.sqlite3("DROP INDEX orders_by_idempotency_key")
        try sandbox.sqlite3("ALTER TABLE products ADD COLUMN colour TEXT")
        let before = try sandbox.checksum(sandbox.database)
        let expected =
            "Error: The schema of '\(sandbox.database)' was changed outside cart: 2 differences from what its "
            + "migrations made, which migrating does not mend; 'cart db check' names them.\n"
        let migrate = try sandbox.run("db", "migrate")
        #expect(migrate.status == 1 && migrate.stdout.isEmpty && migrate.stderr == expected, "\(migrate)")
        let json = try sandbox.run("db", "migrate", "--json")
        #expect(json.status == 1 && json.stdout == #"{"applied":[]}"# + "\n" && json.stderr == expected, "\(json)")
        #expect(try sandbox.checksum(sandbox.database) == before)
        // Migrations still pending are applied, and the change the migrations do not mend is said.
        let older = try olderSchemaSandbox()
        try older.sqlite3("DROP INDEX orders_by_idempotency_key")
        let applied = try older.run("db", "migrate")
        #expect(applied.status == 1, "\(applied)")
        #expect(applied.stdout == "Applied 2 migrations: 0003_cheaper_product_checks, 0004_store_secret.\n", "\(applied)")
        #expect(applied.stderr.hasPrefix("Error: The schema of '\(older.database)' was changed outside cart: 1 difference "))
    }

    @Test("a file whose migration would leave a dangling reference is refused, keeps every byte, and db check names the row")
    func danglingReference() throws {
        let sandbox = try olderSchemaSandbox()
        // Another client, with foreign keys off, leaves a line whose product does not exist.
        _ = try sandbox.sqlite3("INSERT INTO cart_lines (cart_id, sku, quantity, position) VALUES ('alice', 'ghost', 1, 9)")
        let before = try sandbox.checksum(sandbox.database)
        for arguments in Self.reads.filter({ $0.first != "db" }) + Self.writes + [["db", "migrate"]] {
            let result = try sandbox.run(arguments)
            #expect(result.status == 1, "\(arguments) \(result)")
            #expect(
                result.stderr.hasPrefix("Error: Cannot use '\(sandbox.database)': migrating the store would leave rows")
                    && result.stderr.contains("(cart_lines -> products: 1)") && result.stderr.contains("'cart db check'")
                    && result.stderr.split(separator: "\n").count == 1,
                "\(arguments) \(result)")
        }
        #expect(try sandbox.ok("db", "status").stdout.contains("Pending:      0003_cheaper_product_checks"))
        let check = try sandbox.run("db", "check")
        #expect(check.status == 1, "\(check)")
        // The line was written behind the cart's back, so its row's line summary is off too.
        #expect(
            check.stdout == "foreign key violation: cart_lines (sku) = ('ghost') references no row of products\n"
                + "cart 'alice': its row counts 1 line, cart_lines holds 2\n"
                + "cart 'alice': its next line position 2 is not above its last line's, 9\n")
        #expect(try sandbox.checksum(sandbox.database) == before)
        #expect(!FileManager.default.fileExists(atPath: sandbox.database + "-wal"))
    }

    /// Runs `body` with `paths` unwritable to the binary: as `nobody` when the tests run as
    /// root (root ignores permission bits), else with the write bits taken away.
    func readOnly(_ paths: [String], _ body: ([String]) throws -> Void) throws {
        guard getuid() != 0 else { return try body(CartSandbox.asNobody) }
        let files = FileManager.default
        let modes = try paths.map { try files.attributesOfItem(atPath: $0)[.posixPermissions] as? Int ?? 0o755 }
        defer {
            for (path, mode) in zip(paths, modes) { try? files.setAttributes([.posixPermissions: mode], ofItemAtPath: path) }
        }
        for (path, mode) in zip(paths, modes) {
            try files.setAttributes([.posixPermissions: mode & ~0o222], ofItemAtPath: path)
        }
        try body([])
    }

    @Test("a read-only database file: reads work, writes fail in one line, no byte or file changes")
    func readOnlyFile() throws {
        let sandbox = try filledSandbox()
        let directory = sandbox.path("data")
        let before = try sandbox.checksum(sandbox.database)
        let listing = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        try readOnly([directory, sandbox.database]) { launcher in
            for arguments in Self.reads {
                let result = try sandbox.run(arguments, launcher: launcher)
                #expect(result.status == 0 && result.stderr.isEmpty, "\(arguments) \(result)")
            }
            #expect(try sandbox.run(["show"], launcher: launcher).stdout.contains("tea "))
            for arguments in Self.writes {
                let result = try sandbox.run(arguments, launcher: launcher)
                #expect(result.status == 1, "\(arguments) \(result)")
                #expect(
                    result.stderr
                        == "Error: The store '\(sandbox.database)' is read-only; this command needs to write to it.\n",
                    "\(arguments)")
            }
            // `db init` that changes no setting writes nothing, so it says the store is as it was.
            for arguments in [["db", "init"], ["db", "init", "--currency", "USD", "--max-lines", "100"]] {
                let unchanged = try sandbox.run(arguments, launcher: launcher)
                #expect(unchanged.status == 0 && unchanged.stdout.hasPrefix("Unchanged "), "\(arguments) \(unchanged)")
            }
            let changed = try sandbox.run(["db", "init", "--max-lines", "7"], launcher: launcher)
            #expect(changed.status == 1 && changed.errorLines.first?.contains("is read-only") == true, "\(changed)")
            // A server would answer every change with a 503 that invites retrying: it does not start.
            let serve = try sandbox.run(["serve", "--listen", "127.0.0.1:0"], launcher: ["/usr/bin/timeout", "30"] + launcher)
            #expect(serve.status == 1 && serve.stdout.isEmpty, "\(serve)")
            #expect(serve.stderr == "Error: The store '\(sandbox.database)' is read-only; this command needs to write to it.\n")
        }
        #expect(try sandbox.checksum(sandbox.database) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == listing)
    }

    @Test("a store in a directory this user may not search: every command says so, none that there is no store")
    func unreachableStore() throws {
        let sandbox = try filledSandbox()
        let directory = sandbox.path("data")
        let before = try sandbox.checksum(sandbox.database)
        // Root searches any directory, so the commands run as `nobody` then.
        let launcher = getuid() == 0 ? CartSandbox.asNobody : []
        let files = FileManager.default
        try files.setAttributes([.posixPermissions: getuid() == 0 ? 0o700 : 0o000], ofItemAtPath: directory)
        defer { try? files.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory) }
        let expected =
            "Error: '\(sandbox.database)' cannot hold a store: this user cannot reach it (Permission denied); "
            + "check the directories above it.\n"
        for arguments in [["show"], ["db", "status"], ["db", "check"], ["add", "apple"], ["serve", "--listen", "127.0.0.1:0"]] {
            let result = try sandbox.run(arguments, launcher: ["/usr/bin/timeout", "30"] + launcher)
            #expect(result.status == 1 && result.stdout.isEmpty, "\(arguments) \(result)")
            #expect(result.stderr == expected, "\(arguments)")
        }
        try files.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory)
        #expect(try sandbox.checksum(sandbox.database) == before)
    }

    @Test("a read-only database of an older schema: commands say it is read-only and name the pending migrations")
    func readOnlyFileWithPendingMigrations() throws {
        let sandbox = try olderSchemaSandbox()
        let before = try sandbox.checksum(sandbox.database)
        try readOnly([sandbox.path("data"), sandbox.database]) { launcher in
            for arguments in [["show"], ["add", "apple"], ["db", "migrate"]] {
                let result = try sandbox.run(arguments, launcher: launcher)
                #expect(result.status == 1, "\(arguments) \(result)")
                #expect(
                    result.stderr == "Error: The store '\(sandbox.database)' cannot be written by this process: migrations "
                        + "0003_cheaper_product_checks, 0004_store_secret are pending, and only a process that can write "
                        + "the file can apply them; this command needs to write to it.\n",
                    "\(arguments)")
            }
            let status = try sandbox.run(["db", "status"], launcher: launcher)
            #expect(status.status == 0 && status.stdout.contains("Pending:      0004_store_secret"), "\(status)")
        }
        #expect(try sandbox.checksum(sandbox.database) == before)
        #expect(try sandbox.ok("db", "migrate").stdout.hasPrefix("Applied 2 migrations"))
    }

    @Test("a read-only database whose write-ahead log holds another client's commits reads them")
    func readOnlyFileWithLiveLog() throws {
        let sandbox = try filledSandbox()
        let writer = try LockHolder(
            path: sandbox.database,
            script: "PRAGMA wal_autocheckpoint = 0; UPDATE products SET name = 'Apple, fresh' WHERE sku = 'apple';")
        defer { writer.release() }
        try readOnly([sandbox.path("data"), sandbox.database]) { launcher in
            let shown = try sandbox.run(["products", "show", "apple"], launcher: launcher)
            #expect(shown.status == 0 && shown.stdout.contains("Apple, fresh"), "\(shown)")
            let added = try sandbox.run(["add", "apple"], launcher: launcher)
            #expect(added.status == 1 && added.errorLines.first?.contains("is read-only") == true, "\(added)")
        }
    }

    @Test("a read-only database at a path with URI characters (? # %) still opens read-only")
    func readOnlyOddPath() throws {
        let sandbox = try CartSandbox()
        let path = sandbox.path("odd ?#%41 name/cart.db")
        try sandbox.ok("--db", path, "demo")
        try readOnly([URL(fileURLWithPath: path).deletingLastPathComponent().path, path]) { launcher in
            let products = try sandbox.run(["--db", path, "products"], launcher: launcher)
            #expect(products.status == 0 && products.stdout.contains("apple"), "\(products)")
        }
    }

    @Test("a read-only directory with no database yet: one line, nothing created")
    func readOnlyDirectory() throws {
        let sandbox = try CartSandbox()
        let directory = sandbox.path("locked")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try readOnly([directory]) { launcher in
            for arguments in [["show"], ["add", "apple"]] {
                let result = try sandbox.run(["--db", directory + "/cart.db"] + arguments, launcher: launcher)
                #expect(
                    result.status == 1
                        && result.stderr
                            == "Error: No store at '\(directory)/cart.db' yet; 'cart db init' creates it, as do 'cart demo', 'cart products add', 'cart products import', 'cart db migrate', 'cart db copy --to' and 'cart serve'.\n",
                    "\(arguments) \(result)")
            }
            for arguments in [["products", "add", "apple", "--name", "Apple", "--price", "1"], ["db", "init"]] {
                let result = try sandbox.run(["--db", directory + "/cart.db"] + arguments, launcher: launcher)
                #expect(result.status == 1, "\(arguments) \(result)")
                #expect(
                    result.stderr
                        == "Error: '\(directory)/cart.db' cannot hold a store: the directory '\(directory)' is not "
                        + "writable.\n")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }
}
