import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("cart binary: the store")
struct EndToEndDatabaseTests {
    func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test("db init sets currency and caps; the currency is locked once products or orders exist")
    func initialise() throws {
        let sandbox = try CartSandbox()
        #expect(
            try sandbox.ok("db", "init", "--currency", "JPY", "--max-line-quantity", "5").stdout
                == "Created \(sandbox.database): JPY, at most 5 units per line and 100 lines per cart.\n")
        try sandbox.ok("products", "add", "tea", "--name", "Tea", "--price", "500")
        #expect(try sandbox.ok("products").stdout.contains("¥500"))
        #expect(try sandbox.run("products", "update", "tea", "--price", "5.5").status == 64)
        let capped = try sandbox.run("add", "tea", "6")
        // The cap is a rule of the store, not a usage error: exit 1, as when adds grow a line past it.
        #expect(capped.status == 1 && capped.errorLines == ["Error: Cannot hold 6 of 'tea': at most 5 per line."])
        let locked = try sandbox.run("db", "init", "--currency", "EUR")
        #expect(locked.status == 1)
        #expect(locked.stderr == "Error: The store currency is JPY and it holds products or orders; it cannot change to EUR.\n")
        #expect(
            try sandbox.ok("db", "init", "--max-lines", "7", "--json").stdout
                == #"{"created":false,"settings":{"currency":"JPY","maxLineQuantity":5,"maxLinesPerCart":7}}"# + "\n")
        #expect(
            try sandbox.ok("db", "init", "--max-line-quantity", "1", "--max-lines", "1").stdout
                == "Updated \(sandbox.database): JPY, at most 1 unit per line and 1 line per cart.\n")
        #expect(try sandbox.ok("db", "status").stdout.contains("Caps:         1 unit per line, 1 line per cart\n"))
        try sandbox.ok("db", "init", "--max-line-quantity", "5", "--max-lines", "7")
        #expect(try sandbox.run("db", "init", "--currency", "XYZ").status == 64)
        // Omitted options keep their values, as the help says: no "default" that would not apply.
        #expect(
            try sandbox.ok("db", "init", "--max-lines", "8").stdout
                == "Updated \(sandbox.database): JPY, at most 5 units per line and 8 lines per cart.\n")
        // Settings as they were are no update.
        #expect(
            try sandbox.ok("db", "init").stdout
                == "Unchanged \(sandbox.database): JPY, at most 5 units per line and 8 lines per cart.\n")
        let help = try sandbox.ok("db", "init", "--help").stdout.split(whereSeparator: \.isWhitespace).joined(
            separator: " ")
        #expect(help.contains("the options not given keep their current") && !help.contains("default: 99"))
        #expect(try sandbox.run("db", "init", "--max-line-quantity", "0").status == 64)
        let kwd = try CartSandbox()
        try kwd.ok("db", "init", "--currency", "kwd")
        try kwd.ok("products", "add", "x", "--name", "X", "--price", "12.99")
        #expect(try kwd.ok("products").stdout.contains("12.990 KWD"))
        // Any current ISO 4217 currency, not only the best known.
        let franc = try CartSandbox()
        try franc.ok("db", "init", "--currency", "XOF")
        try franc.ok("products", "add", "x", "--name", "X", "--price", "2500")
        #expect(try franc.run("products", "add", "y", "--name", "Y", "--price", "2500.5").status == 64)
        #expect(try franc.ok("products").stdout.contains("2,500 XOF"))
    }

    @Test("commands that put nothing into a store that does not exist say so in one line and create nothing")
    func mistypedLocationCreatesNothing() throws {
        let sandbox = try CartSandbox()
        let location = sandbox.path("mistyped/shpo.sqlite3")
        let commands = [
            ["show"], ["products"], ["products", "show", "apple"], ["products", "export"], ["orders"],
            ["orders", "show", "1"], ["orders", "stats"], ["carts"], ["watch"], ["show", "--json"],
            ["add", "apple"], ["remove", "apple"], ["set", "apple", "2"], ["delete", "apple"], ["clear"],
            ["checkout"], ["merge", "guest"], ["prune", "--older-than", "30"],
            ["products", "update", "apple", "--price", "2"], ["products", "delete", "apple"],
        ]
        for arguments in commands {
            let result = try sandbox.run(["--db", location] + arguments)
            #expect(
                result.status == 1 && result.stdout.isEmpty
                    && result.stderr == "Error: No store at '\(location)' yet; 'cart db init' creates it, as do 'cart demo', 'cart products add', 'cart products import', 'cart db migrate', 'cart db copy --to' and 'cart serve'.\n",
                "\(arguments) \(result)")
        }
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("mistyped")))
        let memory = try sandbox.run(["--db", "memory", "add", "apple"])
        #expect(memory.status == 1 && memory.stderr.contains("yet (the in-memory store is 'memory:');"), "\(memory)")
        #expect(try sandbox.ok("--db", location, "products", "add", "apple", "--name", "Apple", "--price", "1").status == 0)
        #expect(try sandbox.ok("--db", location, "show").stdout == "Cart 'default' is empty.\n")
    }

    @Test("a product add or import refused for its values or by a rule creates no store")
    func refusedCreationCreatesNothing() throws {
        let sandbox = try CartSandbox()
        let location = sandbox.path("new/shop.sqlite3")
        let bad = sandbox.path("bad.csv")
        try "sku,name,price\napple,Apple,abc\n".write(toFile: bad, atomically: true, encoding: .utf8)
        // Well-formed, but a rule refuses its second product: a new product needs a name.
        let refused = sandbox.path("refused.csv")
        try "sku,name,price\napple,Apple,1.00\npear,,2.00\n".write(toFile: refused, atomically: true, encoding: .utf8)
        for (arguments, status) in [
            (["products", "add", "apple", "--name", "Apple", "--price", "1.234"], Int32(64)),
            (["products", "add", "apple", "--name", " ", "--price", "1.23"], 64),
            (["products", "add", "apple", "--name", "Apple", "--price", "2000000"], 64),
            (["products", "import", bad], 1),
            (["products", "import", refused], 1),
        ] {
            let result = try sandbox.run(["--db", location] + arguments)
            #expect(result.status == status && result.stderr.hasPrefix("Error: "), "\(arguments) \(result)")
        }
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("new")))
    }

    @Test("db status, migrate and check report on the store")
    func inspect() throws {
        let sandbox = try CartSandbox()
        #expect(
            try sandbox.ok("db", "status").stdout
                == "No store at '\(sandbox.database)' yet; 'cart db init' creates it, as do 'cart demo', 'cart products add', 'cart products import', 'cart db migrate', 'cart db copy --to' and 'cart serve'.\n")
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
        #expect(
            try sandbox.ok("db", "migrate").stdout
                == "Applied 4 migrations: 0001_initial_schema, 0002_orders, 0003_cheaper_product_checks, 0004_store_secret.\n")
        #expect(try sandbox.ok("db", "migrate").stdout == "The store is up to date (schema version 4).\n")
        #expect(try sandbox.ok("db", "migrate", "--json").stdout == #"{"applied":[]}"# + "\n")
        try sandbox.ok("demo")
        try sandbox.ok("add", "apple")
        let status = try sandbox.ok("db", "status").stdout
        for line in [
            "Store:        \(sandbox.database)", "Backend:      sqlite", "Schema:       version 4",
            "Journal mode: wal", "Currency:     USD", "Caps:         99 units per line, 100 lines per cart",
            "Products:     12", "Carts:        1", "Orders:       0",
        ] {
            #expect(status.contains(line + "\n"), "\(status)")
        }
        #expect(status.contains("Migration:    0004_store_secret applied "))
        let json = try sandbox.ok("db", "status", "--json").stdout
        #expect(
            json.hasPrefix(
                #"{"counts":{"carts":1,"orders":0,"products":12},"details":{"journalMode":"wal","sqliteVersion":""#),
            "\(json)")
        #expect(
            json.contains(
                #""exists":true,"location":"\#(sandbox.database)","migrations":[{"appliedAt":""#), "\(json)")
        #expect(
            json.hasSuffix(
                #""name":"0004_store_secret"}],"pendingMigrations":[],"schemaVersion":4,"#
                    + #""settings":{"currency":"USD","maxLineQuantity":99,"maxLinesPerCart":100},"store":"sqlite"}"# + "\n"),
            "\(json)")
        #expect(
            try sandbox.ok("--db", sandbox.path("none.sqlite3"), "db", "status", "--json").stdout
                == #"{"exists":false,"location":"\#(sandbox.path("none.sqlite3"))","store":"sqlite"}"# + "\n")
        #expect(try sandbox.ok("db", "check").stdout == "ok\n")
        #expect(try sandbox.ok("db", "check", "--json").stdout == #"{"ok":true,"problems":[]}"# + "\n")
    }

    @Test("db check on a damaged file counts each problem, lists a few for people and all in --json")
    func damaged() throws {
        let sandbox = try CartSandbox()
        let rows = (1...300).map {
            "p\($0),Product number \($0) with a name long enough to fill pages,1.\($0 % 90 + 10)\n"
        }
        try sandbox.ok(
            "products", "import", try sandbox.write("p.csv", Array(("sku,name,price\n" + rows.joined()).utf8)))
        // Garble the header and cell pointers of b-tree pages other than the schema's (which
        // migration 0003's table rebuild spread beyond page 1), numbered from 0 here.
        let schema = try CartSandbox.execute(
            "/usr/bin/sqlite3", [sandbox.database, "SELECT pageno - 1 FROM dbstat WHERE name = 'sqlite_schema'"])
        let schemaPages = Set(schema.stdout.split(separator: "\n").compactMap { Int($0) })
        #expect(schemaPages.contains(0), "\(schema)")
        let file = try FileHandle(forUpdating: URL(fileURLWithPath: sandbox.database))
        for page in 2..<18 where !schemaPages.contains(page) {
            try file.seek(toOffset: UInt64(page * 4096 + 3))
            try file.write(contentsOf: Data([0x00, 0x30]))
            try file.seek(toOffset: UInt64(page * 4096 + 12))
            try file.write(contentsOf: Data(Array(repeating: [0x0F, 0xF0, 0x00, 0x05], count: 8).joined()))
        }
        try file.close()

        let json = try sandbox.run("db", "check", "--json")
        #expect(json.status == 1)
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json)")
        let problems = try #require(document["problems"] as? [String])
        #expect(document["ok"] as? Bool == false)
        #expect(problems.count > 20, "\(problems)")
        #expect(problems.allSatisfy { !$0.contains("\n") && !$0.hasPrefix("***") }, "\(problems)")
        let count = problems.count >= 100 ? "at least \(problems.count)" : "\(problems.count)"
        #expect(json.stderr == "Error: The check found \(count) problems in '\(sandbox.database)'.\n")

        let text = try sandbox.run("db", "check")
        #expect(text.status == 1)
        #expect(text.stderr == json.stderr)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines == problems.prefix(20) + ["… and \(problems.count - 20) more (--json lists them all)"])
    }

    @Test("a file that is not a database is refused in one line and left byte for byte")
    func notADatabase() throws {
        let sandbox = try CartSandbox()
        let text = Array(String(repeating: "not a database\n", count: 400).utf8)
        let path = try sandbox.write("notes.txt", text)
        for arguments in [["show"], ["add", "x"], ["db", "status"], ["db", "migrate"]] {
            let result = try sandbox.run(["--db", path] + arguments)
            #expect(result.status == 1, "\(arguments) \(result)")
            #expect(
                result.stderr == "Error: '\(path)' cannot be read as a cart store: the file is not a SQLite database.\n",
                "\(arguments)")
        }
        // The check reports what it finds, as for any damage.
        let check = try sandbox.run("--db", path, "db", "check", "--json")
        #expect(check.status == 1 && check.stderr == "Error: The check found 1 problem in '\(path)'.\n", "\(check)")
        #expect(check.stdout == #"{"ok":false,"problems":["it cannot be read as a cart store: the file is not a SQLite database"]}"# + "\n")
        #expect(try bytes(path) == Data(text))
    }

    @Test("an error about the store reads as one sentence: 'Cannot use FILE: the database …'")
    func foreignDatabase() throws {
        let sandbox = try CartSandbox()
        let path = sandbox.path("other.sqlite3")
        try sandbox.sql("CREATE TABLE notes (text TEXT)", on: path)
        let result = try sandbox.run("--db", path, "show")
        #expect(result.status == 1)
        #expect(
            result.stderr == "Error: Cannot use '\(path)': the database holds another application's tables, not a cart "
                + "store.\n")
    }

    @Test("another tool's schema_migrations (Rails keeps one, with other columns) is another application's database")
    func foreignMigrationRecord() throws {
        let sandbox = try CartSandbox()
        let path = sandbox.path("rails.sqlite3")
        try sandbox.sql(
            "CREATE TABLE schema_migrations (version TEXT PRIMARY KEY); INSERT INTO schema_migrations VALUES ('20200101000000')",
            on: path)
        let before = try bytes(path)
        for arguments in [["show"], ["add", "x"], ["db", "status"], ["db", "check"], ["db", "migrate"], ["db", "init"]] {
            let result = try sandbox.run(["--db", path] + arguments)
            #expect(result.status == 1, "\(arguments) \(result)")
            #expect(
                result.stderr == "Error: Cannot use '\(path)': the database holds another application's tables, not a cart "
                    + "store.\n", "\(arguments)")
        }
        #expect(try bytes(path) == before)
    }

    @Test("db init and db status show a path with a terminal escape or a line break escaped, as messages do")
    func escapedPath() throws {
        let sandbox = try CartSandbox()
        let path = sandbox.path("red\u{1B}[31m\nshop.sqlite3")
        let shown = sandbox.path("red\\u{1B}[31m\\nshop.sqlite3")
        #expect(try sandbox.ok("--db", path, "db", "init").stdout == "Created \(shown): USD, at most 99 units per line and 100 lines per cart.\n")
        #expect(try sandbox.ok("--db", path, "db", "init", "--max-lines", "5").stdout.hasPrefix("Updated \(shown): "))
        let status = try sandbox.ok("--db", path, "db", "status").stdout
        #expect(status.hasPrefix("Store:        \(shown)\nBackend:"), "\(status)")
        #expect(!status.contains("\u{1B}"))
    }

    @Test("a database from a newer version is refused and left byte for byte")
    func newerVersion() throws {
        let sandbox = try CartSandbox()
        try sandbox.ok("demo")
        try sandbox.sql("INSERT INTO schema_migrations VALUES (5, '0005_future', 'x', 0)")
        let before = try bytes(sandbox.database)
        for arguments in [["show"], ["demo"], ["db", "migrate"]] {
            let result = try sandbox.run(arguments)
            #expect(result.status == 1, "\(arguments) \(result)")
            #expect(result.errorLines.count == 1 && result.stderr.contains("newer version of cart"), "\(result)")
        }
        #expect(try bytes(sandbox.database) == before)
    }

    @Test(
        "a record of migrations with an empty or misshapen name is damage, not a newer store: every command says so, db check lists it",
        arguments: ["UPDATE schema_migrations SET name = '' WHERE number = 4", "UPDATE schema_migrations SET name = 'garbage' WHERE number = 2"])
    func unrecognizedMigrationRecord(_ damage: String) throws {
        let sandbox = try CartSandbox()
        try sandbox.ok("demo")
        try sandbox.sql(damage)
        let before = try bytes(sandbox.database)
        for arguments in [["show"], ["add", "apple"], ["db", "status"], ["db", "migrate"]] {
            let result = try sandbox.run(arguments)
            #expect(result.status == 1, "\(arguments) \(result)")
            #expect(
                result.errorLines.count == 1 && result.stderr.contains("which names no migration")
                    && !result.stderr.contains("newer version"), "\(arguments) \(result)")
        }
        let check = try sandbox.run("db", "check", "--json")
        #expect(check.status == 1 && check.stdout.hasPrefix(#"{"ok":false,"problems":["#), "\(check)")
        #expect(check.stdout.contains("which names no migration"), "\(check)")
        #expect(try bytes(sandbox.database) == before)
    }

    @Test("a directory given as the store is one clear line")
    func directory() throws {
        let sandbox = try CartSandbox()
        let result = try sandbox.run("--db", sandbox.path(""), "show")
        #expect(result.status == 1)
        #expect(result.stderr == "Error: '\(sandbox.path(""))' cannot hold a store: it is a directory.\n")
    }

    @Test("a path ending in '/' is refused before any directory is created")
    func trailingSlash() throws {
        let sandbox = try CartSandbox()
        let path = sandbox.path("new") + "/deeper/"
        let result = try sandbox.run("--db", path, "show")
        #expect(result.status == 1)
        #expect(result.stderr == "Error: '\(path)' cannot hold a store: a path ending in '/' names a directory, not a file.\n")
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("new")))
        // A file's path with a '/' after it names no file either.
        try sandbox.ok("db", "init")
        let file = sandbox.database + "/"
        let afterFile = try sandbox.run("--db", file, "show")
        #expect(afterFile.stderr == "Error: '\(file)' cannot hold a store: a path ending in '/' names a directory, not a file.\n")
    }

    @Test("a device such as /dev/null is refused as not a regular file, and left alone")
    func specialFile() throws {
        let sandbox = try CartSandbox()
        for arguments in [["show"], ["add", "apple"], ["db", "status"], ["db", "check"]] {
            let result = try sandbox.run(["--db", "/dev/null"] + arguments)
            #expect(result.status == 1, "\(arguments) \(result)")
            #expect(
                result.stderr
                    == "Error: '/dev/null' cannot hold a store: it is not a regular file (a device, pipe or socket).\n",
                "\(arguments)")
        }
    }

    @Test("a store locked past the busy timeout exits 75")
    func busy() throws {
        let sandbox = try CartSandbox()
        try sandbox.ok("demo")
        let shell = Process()
        let input = Pipe()
        let output = Pipe()
        shell.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        shell.arguments = [sandbox.database]
        shell.standardInput = input
        shell.standardOutput = output
        try shell.run()
        defer {
            try? input.fileHandleForWriting.write(contentsOf: Data("ROLLBACK;\n.quit\n".utf8))
            try? input.fileHandleForWriting.close()
            shell.waitUntilExit()
        }
        try input.fileHandleForWriting.write(contentsOf: Data("BEGIN IMMEDIATE;\nSELECT 'locked';\n".utf8))
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("locked") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen.append(chunk)
        }
        let flag = try sandbox.run("--busy-timeout", "100", "add", "apple")
        #expect(flag.status == 75, "\(flag)")
        #expect(flag.errorLines.count == 1 && flag.stderr.contains("locked by another process"))
        let variable = try sandbox.run(["add", "apple"], environment: ["CART_BUSY_TIMEOUT": "50"])
        #expect(variable.status == 75, "\(variable)")
    }

    @Test("--db beats CART_DB, which beats XDG_DATA_HOME, which beats HOME; directories are created")
    func location() throws {
        let sandbox = try CartSandbox()
        let xdg = sandbox.path("xdg")
        try sandbox.run(
            ["products", "add", "a", "--name", "A", "--price", "1"], environment: ["CART_DB": "", "XDG_DATA_HOME": xdg])
        #expect(FileManager.default.fileExists(atPath: xdg + "/cart/cart.sqlite3"))
        try sandbox.run(["demo"], environment: ["CART_DB": ""])
        #expect(FileManager.default.fileExists(atPath: sandbox.path("home") + "/.local/share/cart/cart.sqlite3"))
        let explicit = sandbox.path("deep/er/given.db")
        try sandbox.ok("--db", explicit, "demo")
        #expect(FileManager.default.fileExists(atPath: explicit))
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
        let noHome = try sandbox.run(["show"], environment: ["CART_DB": "", "HOME": ""])
        #expect(noHome.status == 1 && noHome.stderr.contains("No place for the store"))
    }

    @Test("--db memory: keeps nothing, says so once, and writes no file; --store memory still means it")
    func memory() throws {
        let sandbox = try CartSandbox()
        let added = try sandbox.ok("--db", "memory:", "demo")
        #expect(added.stderr == "Note: the in-memory store keeps nothing; every change is lost when this command ends.\n")
        let next = try sandbox.run(["products", "--json"], environment: ["CART_DB": "memory:"])
        #expect(next.stdout == #"{"next":null,"products":[]}"# + "\n")
        // The sandbox sets CART_DB to a file, which CART_STORE=memory overrides.
        let alias = try sandbox.run(["products", "--json"], environment: ["CART_STORE": "memory"])
        #expect(alias.stdout == #"{"next":null,"products":[]}"# + "\n" && alias.stderr.contains("ignores CART_DB"), "\(alias)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
        #expect(try sandbox.ok("--db=memory:", "db", "check").stdout == "ok\n")
        #expect(try sandbox.ok("--store=memory", "db", "migrate").stdout == "The store has no schema to migrate.\n")
        #expect(
            try sandbox.ok("--db=memory:", "db", "status").stdout.hasPrefix(
                "Store:       memory:\nBackend:     memory\nSchema:      version 0\n"
                    + "Persistence: none: everything is lost when the process ends\n"))
    }

    @Test("SQLite URIs are refused, never opened as URIs nor created as files; ./file:x and :memory: are plain file names")
    func uriLookingNames() throws {
        let sandbox = try CartSandbox()
        let work = sandbox.path("work")
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        for name in ["file:shop.db?mode=memory", "file:x", "file:locks.db?nolock=1"] {
            let refused = try sandbox.shell("cd '\(work)' && \"$0\" --db '\(name)' products add apple --name Apple --price 1")
            #expect(refused.status == 64 && refused.stderr.contains("leading './'"), "\(name): \(refused)")
        }
        for name in ["./file:shop.db?mode=memory", "./file:x", ":memory:", "./file:locks.db?nolock=1"] {
            let db = "'" + name + "'"
            let result = try sandbox.shell(
                "cd '\(work)' && \"$0\" --db \(db) products add apple --name Apple --price 1 >/dev/null"
                    + " && \"$0\" --db \(db) products --json")
            #expect(result.status == 0 && result.stdout.contains(#""sku":"apple""#), "\(name): \(result)")
            #expect(result.stderr == "Note: there was no store at '\(name)'; a new one was created.\n", "\(name): \(result)")
        }
        let fromEnvironment = try sandbox.shell(#"cd '\#(work)' && CART_DB=':memory:' "$0" add apple"#)
        #expect(fromEnvironment.status == 0 && fromEnvironment.stderr.isEmpty, "the file ':memory:' holds apple: \(fromEnvironment)")
        let url = try sandbox.shell(#"cd '\#(work)' && "$0" --db 'file:///x.db' show"#)
        #expect(url.status == 64 && url.errorLines.count == 1 && url.stderr.contains("leading './'"), "\(url)")
        let files = try FileManager.default.contentsOfDirectory(atPath: work).filter { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
        #expect(Set(files) == ["file:shop.db?mode=memory", "file:x", ":memory:", "file:locks.db?nolock=1"], "\(files)")
        #expect(try sandbox.shell("cd '\(work)' && CART_DB='file:x' \"$0\" show").status == 64)
    }

    @Test("a --db path or CART_DB that is not valid UTF-8 is a usage error, never read as another file")
    func nonUTF8Names() throws {
        let sandbox = try CartSandbox()
        let work = sandbox.path("work")
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        for byte in ["377", "376", "300"] {
            let result = try sandbox.shell(#"cd '\#(work)' && exec "$0" --db "$(printf 'shop\\#(byte).db')" add apple"#)
            #expect(result.status == 64, "\(byte): \(result)")
            // A usage error like any other: the usage of the command the words name follows.
            #expect(
                result.stderr == "Error: Argument 2 is not valid UTF-8 text; file names and values must be UTF-8.\n"
                    + "Usage: cart add <sku> [<quantity>] [--if-version <n>]\nSee 'cart add --help' for more information.\n", "\(result)")
        }
        let environment = try sandbox.shell(#"cd '\#(work)' && CART_DB="$(printf 'shop\377.db')" exec "$0" show"#)
        #expect(environment.status == 64, "\(environment)")
        #expect(
            environment.stderr == "Error: CART_DB is not valid UTF-8 text; file names and values must be UTF-8.\n"
                + "Usage: cart show\nSee 'cart show --help' for more information.\n")
        let argument = try sandbox.shell(#"cd '\#(work)' && exec "$0" products add "$(printf 'bad\377')" --name X --price 1"#)
        #expect(argument.status == 64, "\(argument)")
        #expect(argument.stderr.hasSuffix("See 'cart products add --help' for more information.\n"), "\(argument)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: work).isEmpty)
    }
}
