import CartPostgres
import CartTestSupport
import Foundation
import Testing

/// The built `cart` binary on PostgreSQL: moving a shop between backends with `db copy`, and
/// locations and stores it must refuse, each in one line with the right exit status, no
/// password shown and nothing written.
@Suite("cart binary on PostgreSQL")
struct PostgresCLITests {
    /// Everything `cart` prints of a store as JSON: the settings and counts, every product,
    /// the carts and each cart, the order history and each order, byte for byte.
    static func snapshot(_ cart: CartCommand, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        func stdout(_ arguments: String...) throws -> String {
            let result = try cart.run(arguments + ["--json"])
            #expect(result.status == 0, "\(arguments) \(result)", sourceLocation: sourceLocation)
            return result.stdout
        }
        let status = try cart.json("db", "status", sourceLocation: sourceLocation)
        var lines = try ["settings", "counts"].map { key in
            String(decoding: try JSONSerialization.data(withJSONObject: status[key] ?? [:], options: .sortedKeys), as: UTF8.self)
        }
        lines.append(try stdout("products", "--all"))
        let carts = try stdout("carts")
        lines.append(carts)
        let listed = try JSONSerialization.jsonObject(with: Data(carts.utf8)) as? [String: Any]
        for summary in listed?["carts"] as? [[String: Any]] ?? [] {
            lines.append(try stdout("--cart", summary["cart"] as? String ?? "", "show"))
        }
        let orders = try stdout("orders", "--limit", "100", "--oldest-first")
        lines.append(orders)
        let page = try JSONSerialization.jsonObject(with: Data(orders.utf8)) as? [String: Any]
        for order in page?["orders"] as? [[String: Any]] ?? [] {
            lines.append(try stdout("orders", "show", "\(order["number"] as? Int ?? 0)"))
        }
        return lines
    }

    /// A shop in euros through the CLI: products of every kind (untracked, tracked, sold out,
    /// inactive, names with quotes and accents, SKUs out of byte order), carts filled out of
    /// SKU order, one emptied, one never checked out, and orders with and without a key.
    static func fill(_ cart: CartCommand) throws {
        try cart.ok("db", "init", "--currency", "EUR", "--max-line-quantity", "50", "--max-lines", "20")
        try cart.ok("products", "add", "zucchini", "--name", "Zucchini", "--price", "0.89", "--stock", "40")
        try cart.ok("products", "add", "apple", "--name", "Äpfel – Boskoop", "--price", "1.25")
        try cart.ok("products", "add", "Banana", "--name", #"Banana "Cavendish""#, "--price", "0.30", "--stock", "7")
        try cart.ok("products", "add", "creme", "--name", "Crème fraîche", "--price", "1.99", "--stock", "0")
        try cart.ok("products", "add", "gone", "--name", "Discontinued", "--price", "0.01")
        try cart.ok("products", "update", "gone", "--inactive")
        for (index, id) in ["carol", "alice", "bob", "dave"].enumerated() {
            let skus = ["zucchini", "apple", "Banana"]
            for offset in 0..<skus.count {
                try cart.ok("--cart", id, "add", skus[(index + offset) % skus.count], "\(index + 1)")
            }
        }
        try cart.ok("--cart", "alice", "remove", "apple")
        try cart.ok("--cart", "bob", "checkout", "--key", "bob-order-1")
        try cart.ok("--cart", "carol", "checkout")
        try cart.ok("--cart", "bob", "add", "apple")
        try cart.ok("--cart", "dave", "clear")
    }

    @Test("db copy: SQLite to PostgreSQL to SQLite gives the same JSON for every product, cart and order", TestServer.requires())
    func copyRoundTrip() throws {
        let home = try TemporaryDirectory()
        let schema = try TestSchema()
        defer { try? schema.drop() }
        let first = CartCommand(location: home.path("first.sqlite3"), home: home)
        try Self.fill(first)
        let copied = try first.json("db", "copy", "--to", schema.url)
        #expect(copied["copied"] as? [String: Int] == ["products": 5, "carts": 4, "orders": 2])
        #expect(copied["from"] as? String == first.location)
        #expect(copied["to"] as? String == schema.url)

        let postgres = CartCommand(location: schema.url, home: home)
        let second = home.path("second.sqlite3")
        let back = try postgres.ok("db", "copy", "--to", second)
        #expect(back.stdout == "Copied 5 products, 4 carts and 2 orders from '\(schema.url)' to '\(second)'.\n")
        #expect(back.stderr.isEmpty, "no progress line when stderr is not a terminal: \(back.stderr)")

        let original = try Self.snapshot(first)
        #expect(original.count == 2 + 1 + 1 + 4 + 1 + 2)
        let copies = [try Self.snapshot(postgres), try Self.snapshot(CartCommand(location: second, home: home))]
        for copy in copies {
            #expect(copy.count == original.count)
            for (line, expected) in zip(copy, original) { #expect(line == expected) }
        }
        // The copy goes on numbering orders where the shop stopped.
        #expect((try postgres.json("--cart", "alice", "checkout")["order"] as? [String: Any])?["number"] as? Int == 3)
    }

    @Test("db status shows the schema version once and the PostgreSQL schema under a label of its own", TestServer.requires())
    func statusLabels() throws {
        let home = try TemporaryDirectory()
        let schema = try TestSchema()
        defer { try? schema.drop() }
        let postgres = CartCommand(location: schema.url, home: home)
        try postgres.ok("db", "migrate")
        let lines = try postgres.ok("db", "status").stdout.split(separator: "\n")
        let labels = lines.compactMap { $0.split(separator: ":", maxSplits: 1).first.map(String.init) }
        let once = labels.filter { $0 != "Migration" }
        #expect(Set(once).count == once.count, "every label but Migration appears once: \(lines)")
        #expect(lines.contains { $0.hasPrefix("Schema:") && $0.hasSuffix(" version 3") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("PostgreSQL schema:") && $0.hasSuffix(" " + schema.name) }, "\(lines)")
    }

    @Test("db status --json gives the connection counts as numbers, the other details as strings", TestServer.requires())
    func statusDetailsJSON() throws {
        let home = try TemporaryDirectory()
        let schema = try TestSchema()
        defer { try? schema.drop() }
        let postgres = CartCommand(location: schema.url, home: home)
        try postgres.ok("db", "migrate")
        let details = try #require(try postgres.json("db", "status")["details"] as? [String: Any])
        #expect(Set(details.keys) == ["database", "maxConnections", "openConnections", "schema", "serverVersion"])
        for key in ["maxConnections", "openConnections"] {
            #expect(details[key] is NSNumber && !(details[key] is String), "\(key): \(details[key] ?? "none")")
        }
        let (open, limit) = (details["openConnections"] as? Int ?? 0, details["maxConnections"] as? Int ?? 0)
        #expect(open >= 1 && limit >= open, "\(details)")
        for key in ["database", "schema", "serverVersion"] { #expect(details[key] is String, "\(key)") }
        #expect(details["schema"] as? String == schema.name)
        let lines = try postgres.ok("db", "status").stdout.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("Server's connection limit:") && $0.hasSuffix(" \(limit)") }, "\(lines)")
    }

    @Test("a price stored past a dropped CHECK constraint: show, export and checkout exit 1 naming it, as db check does", TestServer.requires())
    func priceOutOfRange() throws {
        let home = try TemporaryDirectory()
        let schema = try TestSchema()
        defer { try? schema.drop() }
        let postgres = CartCommand(location: schema.url, home: home)
        try postgres.ok("products", "add", "apple", "--name", "Apple", "--price", "1.25")
        try postgres.ok("add", "apple")
        try schema.run(script: "ALTER TABLE products DROP CONSTRAINT products_price_check; UPDATE products SET price = -5 WHERE sku = 'apple'")
        let refusal = "holds a value this version cannot use: the price of product 'apple' is -5, below 0. 'cart db check' lists every such value.\n"
        for arguments in [["show"], ["products", "export"], ["checkout"]] {
            let result = try postgres.run(arguments)
            #expect(result.status == 1 && result.stderr.hasSuffix(refusal), "\(arguments) \(result)")
        }
        let check = try postgres.run("db", "check")
        #expect(check.status == 1 && check.stdout.contains("the price of product 'apple' is -5, below 0"), "\(check)")
    }

    @Test(
        "a NULL where the schema had NOT NULL, read by add: exit 1 naming the value, as db check does, not a missing product, cart or line",
        TestServer.requires(),
        arguments: [
            ("products", "price", "the price of product 'apple'"),
            ("carts", "version", "the version of cart 'default'"),
            ("cart_lines", "quantity", "the quantity of 'apple' in cart 'default'"),
        ])
    func nullReadByAdd(table: String, column: String, value: String) throws {
        let home = try TemporaryDirectory()
        let schema = try TestSchema()
        defer { try? schema.drop() }
        let postgres = CartCommand(location: schema.url, home: home)
        try postgres.ok("products", "add", "apple", "--name", "Apple", "--price", "1.25")
        try postgres.ok("add", "apple")
        try schema.run(script: "ALTER TABLE \(table) ALTER COLUMN \(column) DROP NOT NULL; UPDATE \(table) SET \(column) = NULL")
        let result = try postgres.run("add", "apple")
        let refusal = "holds a value this version cannot use: \(value) is NULL, not an integer. 'cart db check' lists every such value."
        #expect(result.status == 1 && result.errorLines.count == 1 && result.stderr.hasSuffix(refusal + "\n"), "\(result)")
        let check = try postgres.run("db", "check")
        #expect(check.status == 1 && check.stdout.contains("\(value) is NULL, not an integer\n"), "\(check)")
    }

    @Test("a closed stdout is an output failure, not the connection's socket written to", TestServer.requires())
    func closedStandardOutput() throws {
        let home = try TemporaryDirectory()
        let schema = try TestSchema()
        defer { try? schema.drop() }
        let postgres = CartCommand(location: schema.url, home: home)
        try postgres.ok("db", "init")
        try postgres.ok("products", "add", "apple", "--name", "Apple", "--price", "1.29")
        // With descriptor 1 closed, the connection's socket would be the next descriptor
        // opened, and the confirmation would be written into it.
        let added = try postgres.shell(#"exec "$0" add apple >&-"#)
        #expect(added.status == 74, "\(added)")
        #expect(added.stderr == "Error: The change was saved, but its output could not be written: Bad file descriptor.\n")
        let read = try postgres.shell(#"exec "$0" show >&-"#)
        #expect(read.status == 1 && read.stderr == "Error: Cannot write output: Bad file descriptor.\n", "\(read)")
        #expect(try postgres.ok("show", "--json").stdout.contains(#""quantity":1,"sku":"apple""#))
    }

    @Test("db check: a fresh store is ok; a dropped unique index is one finding, in words and in JSON", TestServer.requires())
    func droppedIndex() throws {
        let home = try TemporaryDirectory()
        let schema = try TestSchema()
        defer { try? schema.drop() }
        let postgres = CartCommand(location: schema.url, home: home)
        try postgres.ok("db", "migrate")
        #expect(try postgres.ok("db", "check").stdout == "ok\n")
        #expect(try postgres.ok("db", "check", "--json").stdout == #"{"ok":true,"problems":[]}"# + "\n")
        try schema.run(script: "DROP INDEX orders_by_idempotency_key")
        let finding = "index orders_by_idempotency_key is missing: the schema was changed outside cart"
        let text = try postgres.run("db", "check")
        #expect(text.status == 1 && text.stdout == finding + "\n", "\(text)")
        #expect(text.stderr.hasPrefix("Error: The check found 1 problem in "), "\(text)")
        let json = try postgres.run("db", "check", "--json")
        #expect(json.status == 1 && json.stdout == #"{"ok":false,"problems":[""# + finding + #""]}"# + "\n", "\(json)")
        // Migrating cannot mend it, so db migrate does not call the store up to date.
        let migrate = try postgres.run("db", "migrate")
        #expect(migrate.status == 1 && migrate.stdout.isEmpty, "\(migrate)")
        #expect(
            migrate.stderr.hasPrefix("Error: The schema of ")
                && migrate.stderr.hasSuffix(
                    "was changed outside cart: 1 difference from what its migrations made, which migrating does not mend; "
                        + "'cart db check' names them.\n"), "\(migrate)")
    }

    @Test("serve refuses a store whose sessions take no writes, which an empty unit does not find out", TestServer.requires())
    func serveReadOnlySessions() throws {
        let home = try TemporaryDirectory()
        let schema = try TestSchema()
        defer { try? schema.drop() }
        try CartCommand(location: schema.url, home: home).ok("db", "migrate")
        let readOnly = schema.url + "%20-c%20default_transaction_read_only%3Don"
        try schema.repository().checkWritable()
        #expect(throws: PostgresStoreError.readOnly("its sessions are read-only (default_transaction_read_only)")) {
            try PostgresCartRepository(url: readOnly).checkWritable()
        }
        let serve = try CartCommand(location: readOnly, home: home)
            .shell(#"exec timeout 20 "$0" serve --listen 127.0.0.1:0"#)
        let refusal = "its sessions are read-only (default_transaction_read_only); this command needs to write to it.\n"
        #expect(serve.status == 1 && serve.stdout.isEmpty && serve.stderr.hasSuffix(refusal), "\(serve)")
        #expect(serve.errorLines.count == 1 && serve.stderr.contains("cannot be written by this process"), "\(serve)")
    }

    @Test("db check: a missing settings row is named as on SQLite; a second one, past dropped constraints, too", TestServer.requires())
    func settingsRow() throws {
        let home = try TemporaryDirectory()
        let schema = try TestSchema()
        defer { try? schema.drop() }
        let postgres = CartCommand(location: schema.url, home: home)
        try postgres.ok("db", "migrate")
        try schema.run(script: "DELETE FROM settings")
        let missing = try postgres.run("db", "check")
        #expect(missing.status == 1 && missing.stdout == "the store has no settings row\n", "\(missing)")
        let json = try postgres.run("db", "check", "--json")
        #expect(json.status == 1 && json.stdout == #"{"ok":false,"problems":["the store has no settings row"]}"# + "\n", "\(json)")
        let status = try postgres.run("db", "status")
        #expect(status.status == 1 && status.stdout.contains("Products:") && !status.stdout.contains("Currency:"), "\(status)")
        #expect(status.stderr.contains("has no settings row"), "\(status)")

        try schema.run(
            script: "ALTER TABLE settings DROP CONSTRAINT settings_pkey; "
                + "INSERT INTO settings VALUES (1, 'USD', 2, NULL, 99, 100), (1, 'USD', 2, NULL, 99, 100)")
        let doubled = try postgres.run("db", "check")
        #expect(doubled.status == 1 && doubled.stdout.contains("\nsettings holds 2 rows instead of 1\n"), "\(doubled)")
        #expect(!doubled.stdout.contains("no settings row"), "\(doubled)")
    }

    @Test("the password never shows: db status, db copy and a refused non-empty target mask it", TestServer.requires(TestServer.passwordURL))
    func passwordMasked() throws {
        let home = try TemporaryDirectory()
        let schema = try TestSchema(TestServer.passwordURL)
        defer { try? schema.drop() }
        let secret = "cart-password"
        let masked = try PostgresLocation(schema.url).redacted
        #expect(schema.url.contains(secret) && !masked.contains(secret))
        let postgres = CartCommand(location: schema.url, home: home)
        try postgres.ok("products", "add", "tea", "--name", "Tea", "--price", "2.50")
        let status = try postgres.ok("db", "status")
        #expect(status.stdout.contains("Store:") && status.stdout.contains(masked), "\(status)")
        #expect(try postgres.json("db", "status")["location"] as? String == masked)

        let source = CartCommand(location: home.path("shop.sqlite3"), home: home)
        try source.ok("products", "add", "coffee", "--name", "Coffee", "--price", "3.00")
        let refused = try source.run("db", "copy", "--to", schema.url)
        #expect(refused.status == 1, "\(refused)")
        #expect(
            refused.stderr
                == "Error: '\(masked)' is not empty (it holds 1 product, 0 carts and 0 orders); a store is copied only "
                + "into an empty one: give a file that does not exist yet, or an empty database.\n")
        #expect(try postgres.ok("products", "--json").stdout.contains(#""sku":"tea""#))
        #expect(!(try postgres.ok("products", "--json").stdout.contains("coffee")))

        // A paging hint would not run with the password masked: it leaves --db out and says so.
        try postgres.ok("products", "add", "cake", "--name", "Cake", "--price", "3.00")
        let page = try postgres.ok("--db", schema.url, "products", "--limit", "1")
        #expect(page.stdout.hasSuffix(" products --limit 1 --after cake  (with your --db, whose password is not shown)\n"), "\(page)")
        #expect(!page.stdout.contains(secret) && !page.stdout.contains("***"), "\(page)")
        // A list of suggestions says so once, above it.
        let demo = try postgres.ok("--db", schema.url, "demo")
        #expect(demo.stdout.components(separatedBy: "whose password is not shown").count == 2, "\(demo)")
        #expect(demo.stdout.contains("Try next (with your --db, whose password is not shown):\n"), "\(demo)")
        #expect(!demo.stdout.contains(secret), "\(demo)")
        // A server's log names the store it serves, masked too; SIGTERM after 3 seconds stops it.
        let serve = try postgres.shell(#"exec timeout --preserve-status 3 "$0" serve --listen 127.0.0.1:0"#)
        #expect(serve.status == 0 && serve.stdout.hasPrefix("Listening on http://127.0.0.1:"), "\(serve)")
        #expect(serve.stderr.hasSuffix(" Serving the postgresql store '\(masked)'.\n"), "\(serve)")

        let wrong = schema.url.replacing(secret, with: "not-the-password")
        let denied = try CartCommand(location: wrong, home: home).run("show")
        #expect(denied.status == 1)
        #expect(
            denied.stderr
                == "Error: Cannot use '\(masked)': the server refused the credentials (password authentication failed "
                + "for user \"cart_password\").\n")
        for run in [status, refused, denied, page, serve] {
            #expect(!run.stdout.contains(secret) && !run.stderr.contains(secret) && !run.stderr.contains("not-the-password"))
        }
    }

    @Test("bad locations and stores: one line each, exit 64, 1 or 75, and nothing written", TestServer.requires())
    func refusals() throws {
        let home = try TemporaryDirectory()
        let schema = try TestSchema()
        defer { try? schema.drop() }
        func expectRefused(
            _ location: String, status: Int32, _ message: String, sourceLocation: SourceLocation = #_sourceLocation
        ) throws {
            let result = try CartCommand(location: location, home: home).run("products", "add", "tea", "--name", "Tea", "--price", "1")
            #expect(result.status == status, "\(result)", sourceLocation: sourceLocation)
            #expect(result.errorLines.count == 1, "\(result)", sourceLocation: sourceLocation)
            #expect(result.errorLines.first.map(String.init) == "Error: " + message, sourceLocation: sourceLocation)
            #expect(result.stdout.isEmpty && !result.stderr.contains("s3cret"), "\(result)", sourceLocation: sourceLocation)
        }
        try expectRefused(
            "postgresql://shop:s3cret@db.example:notaport/shop", status: 64,
            "Cannot open 'postgresql://shop:***@db.example:notaport/shop': it is not a valid PostgreSQL location "
                + "(invalid integer value \"notaport\" for connection option \"port\").")
        try expectRefused(
            "postgresql://shop:s3cret@db.example/shop?bogus=1", status: 64,
            "Cannot open 'postgresql://shop:***@db.example/shop?bogus=1': it is not a valid PostgreSQL location "
                + "(invalid URI query parameter: \"bogus\").")
        // Refused, or, when something that is not PostgreSQL listens there, timed out.
        let unreachable = try CartCommand(location: "postgres://shop:s3cret@127.0.0.1:1/shop?connect_timeout=2", home: home)
            .run("products", "add", "tea", "--name", "Tea", "--price", "1")
        #expect(unreachable.status == 75 && unreachable.errorLines.count == 1, "\(unreachable)")
        #expect(
            unreachable.stderr.hasPrefix(
                "Error: The store 'postgres://shop:***@127.0.0.1:1/shop?connect_timeout=2' is unavailable: the server "
                    + "cannot be reached ("), "\(unreachable)")
        #expect(unreachable.stderr.hasSuffix("); try again.\n"), "\(unreachable)")
        let base = try TestServer.value(TestServer.url)
        let noDatabase = try #require(base.hasSuffix("/cart_test") ? String(base.dropLast(9)) + "no_such_shop" : nil)
        try expectRefused(noDatabase, status: 1, "Cannot use '\(noDatabase)': database \"no_such_shop\" does not exist.")

        try schema.execute("CREATE TABLE accounts (id integer PRIMARY KEY)")
        try expectRefused(
            schema.url, status: 1,
            "Cannot use '\(schema.url)': the database holds another application's tables, not a cart store.")
        #expect(try schema.tables() == ["accounts"])

        let newer = try TestSchema()
        defer { try? newer.drop() }
        _ = try newer.repository()
        try newer.execute("INSERT INTO schema_migrations VALUES (99, '0099_from_the_future', 'abc', 0)")
        let tables = try newer.tables()
        try expectRefused(
            newer.url, status: 1,
            "Cannot use '\(newer.url)': the store was written by a newer version of cart (unknown migrations: "
                + "0099_from_the_future); upgrade cart to open it.")
        #expect(try newer.tables() == tables)
        #expect(try newer.execute("SELECT count(*) FROM products")[0].int(0) == 0)
    }

    @Test("--busy-timeout 0 does not wait for a lock another session holds: exit 75 at once, as on SQLite", TestServer.requires())
    func busyTimeoutZero() throws {
        let home = try TemporaryDirectory()
        let schema = try TestSchema()
        defer { try? schema.drop() }
        let postgres = CartCommand(location: schema.url, home: home)
        try postgres.ok("products", "add", "apple", "--name", "Apple", "--price", "1.25")
        try postgres.ok("add", "apple")
        // The server ends the holder's session, and with it the lock, after 3 s: a command
        // that waits for the lock gets it then and succeeds.
        let holder = try PostgresConnection(schema.url)
        try holder.executeScript(
            "SET idle_in_transaction_session_timeout = '3s'; BEGIN; SELECT * FROM carts WHERE id = 'default' FOR UPDATE")
        let started = ContinuousClock.now
        let result = try postgres.run("--busy-timeout", "0", "add", "apple")
        #expect(ContinuousClock.now - started < .seconds(3), "\(result)")
        #expect(result.status == 75, "\(result)")
        #expect(
            result.errorLines == [
                "Error: The store '\(schema.url)' is unavailable: another client held a lock longer than the busy "
                    + "timeout; try again."
            ], "\(result)")
        #expect(try postgres.json("show")["totalItems"] as? Int == 1, "the refused add changed nothing")
    }

    @Test("a server that accepts the connection and never answers: exit 75 once connect_timeout has passed")
    func silentServer() throws {
        let home = try TemporaryDirectory()
        let listener = try SilentListener()
        let location = "postgresql://shop:s3cret@127.0.0.1:\(listener.port)/shop?connect_timeout=2"
        let started = ContinuousClock.now
        let result = try CartCommand(location: location, home: home).run("show")
        // A bound on a hang, not a measure of speed: libpq gives up after 2 s.
        #expect(ContinuousClock.now - started < .seconds(30))
        #expect(result.status == 75, "\(result)")
        #expect(
            result.errorLines == [
                "Error: The store 'postgresql://shop:***@127.0.0.1:\(listener.port)/shop?connect_timeout=2' is "
                    + "unavailable: the server cannot be reached (timeout expired); try again."
            ], "\(result)")
    }

    @Test("a session the server ends just after startup: one Error line, and nothing of libpq's on stderr")
    func sessionEndedAtStartup() throws {
        let home = try TemporaryDirectory()
        let server = try TerminatingServer()
        let location = "postgresql://user@127.0.0.1:\(server.port)/db"
        let result = try CartCommand(location: location, home: home).run("--db", location, "show")
        #expect(result.status != 0, "\(result)")
        #expect(!result.stderr.contains("FATAL:  terminating"), "\(result)")
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 1 && lines.first?.hasPrefix("Error: ") == true, "\(result)")
    }

    @Test("a server of another protocol at the address: exit 1, saying it is not PostgreSQL")
    func notPostgres() throws {
        let home = try TemporaryDirectory()
        let listener = try SilentListener(answer: Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".utf8))
        for (query, cause) in [
            ("", "received invalid response to SSL negotiation: H"),
            ("&sslmode=disable", "expected authentication request from server, but received H"),
        ] {
            let location = "postgresql://shop:s3cret@127.0.0.1:\(listener.port)/shop?connect_timeout=5" + query
            let result = try CartCommand(location: location, home: home).run("show")
            #expect(result.status == 1, "\(result)")
            #expect(
                result.errorLines == [
                    "Error: Cannot use '\(PostgresLocation.redacted(location))': what answers at that address is not a "
                        + "PostgreSQL server (\(cause))."
                ], "\(result)")
        }
    }

    @Test("a server that asks for a password when none is given: exit 1, saying where one goes", TestServer.requires(TestServer.passwordURL))
    func missingPassword() throws {
        let home = try TemporaryDirectory()
        let location = try TestServer.value(TestServer.passwordURL).replacing(":cart-password@", with: "@")
        // The run's HOME holds no ~/.pgpass, and no PG variable reaches it.
        let result = try CartCommand(location: location, home: home).run("show")
        #expect(result.status == 1, "\(result)")
        #expect(
            result.errorLines == [
                "Error: Cannot use '\(location)': the server asks for a password and none was given (put it in the "
                    + "location, PGPASSWORD or ~/.pgpass)."
            ], "\(result)")
    }

    @Test("a server restart: exit 75 in one line while it is down, and the next command works once it is back", TestServer.requires(TestServer.directory))
    func serverRestart() throws {
        let home = try TemporaryDirectory()
        let cluster = try PrivateCluster()
        let cart = CartCommand(location: cluster.url, home: home)
        try cart.ok("products", "add", "tea", "--name", "Tea", "--price", "2.50")
        try cart.ok("add", "tea")
        try cluster.stop()
        let down = try cart.run("add", "tea")
        #expect(down.status == 75, "\(down)")
        #expect(down.errorLines.count == 1 && down.stderr.contains("is unavailable: the server cannot be reached"), "\(down)")
        try cluster.start()
        try cart.ok("add", "tea")
        let shown = try cart.json("show")
        #expect((shown["items"] as? [[String: Any]])?.first?["quantity"] as? Int == 2)
        #expect(shown["version"] as? Int == 2)
    }

    @Test("watch goes on across a server restart: one stderr line while it waits, one when the store is back", TestServer.requires(TestServer.directory))
    func watchAcrossRestart() throws {
        let home = try TemporaryDirectory()
        let cluster = try PrivateCluster()
        let cart = CartCommand(location: cluster.url, home: home)
        try cart.ok("products", "add", "tea", "--name", "Tea", "--price", "2.50")
        try cart.ok("add", "tea")
        let (output, errors) = (home.path("watch.out"), home.path("watch.err"))
        let watch = try cart.start("watch", "--json", "--interval", "50", stdout: output, stderr: errors)
        defer { if watch.isRunning { kill(watch.processIdentifier, SIGKILL) } }
        func text(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        func eventually(_ what: String, _ condition: () -> Bool) -> Bool {
            for _ in 0..<600 where !condition() { pause(milliseconds: 50) }
            let held = condition()
            #expect(held, "\(what); stdout: \(text(output)); stderr: \(text(errors))")
            return held
        }
        guard eventually("the first snapshot", { text(output).contains(#""quantity":1,"#) }) else { return }
        try cluster.stop()
        guard eventually("the waiting line", { text(errors).hasPrefix("Waiting for the store: ") }) else { return }
        try cluster.start()
        guard eventually("the line saying the store is back", { text(errors).hasSuffix("\nThe store is back.\n") }) else { return }
        #expect(text(errors).split(separator: "\n").count == 2, "\(text(errors))")
        #expect(!text(errors).contains("try again"), "the watch tries again by itself: \(text(errors))")
        #expect(text(output).split(separator: "\n").count == 1, "an unchanged cart is not printed again")
        try cart.ok("add", "tea", "2")
        guard eventually("the snapshot after the restart", { text(output).contains(#""quantity":3,"#) }) else { return }
        #expect(watch.isRunning)
        kill(watch.processIdentifier, SIGTERM)
        watch.waitUntilExit()
        #expect(watch.terminationStatus == 0)
        #expect(text(output).split(separator: "\n").count == 2)
    }

    @Test("a role that may not read the store is told so; one that may read but not write is told that", TestServer.requires(TestServer.passwordURL))
    func rolePrivileges() throws {
        let home = try TemporaryDirectory()
        let schema = try TestSchema()
        defer { try? schema.drop() }
        try CartCommand(location: schema.url, home: home).ok("products", "add", "tea", "--name", "Tea", "--price", "2.50")
        let reader = CartCommand(
            location: TestSchema.url(try TestServer.value(TestServer.passwordURL), searchPath: schema.name), home: home)
        let denied = try reader.run("products")
        #expect(denied.status == 1, "\(denied)")
        #expect(denied.errorLines.count == 1 && denied.stderr.contains("the role may not read the store (permission denied for"), "\(denied)")
        #expect(denied.stderr.contains("grant it SELECT on the store's tables, or connect as their owner"), "\(denied)")
        #expect(!denied.stderr.contains("write"), "\(denied)")

        try schema.execute(PostgresSQL("GRANT SELECT ON ALL TABLES IN SCHEMA " + schema.name + " TO cart_password"))
        #expect(try reader.ok("products").stdout.contains("Tea"))
        let refused = try reader.run("add", "tea")
        #expect(refused.status != 0 && refused.stderr.contains("may not write"), "\(refused)")
        #expect(refused.stderr.contains("grant it INSERT, UPDATE and DELETE on the store's tables"), "\(refused)")
    }

    @Test("db status, db init and add say what keeps a missing store from being created", TestServer.requires(TestServer.passwordURL))
    func statusOfUncreatableStore() throws {
        let home = try TemporaryDirectory()
        let missing = CartCommand(
            location: TestSchema.url(try TestServer.value(TestServer.url), searchPath: "cart_no_such_schema"), home: home)
        let noSchema = try missing.run("db", "status")
        #expect(noSchema.status == 1 && noSchema.errorLines.count == 1, "\(noSchema)")
        let noSchemaReason =
            "its search path names no schema that exists and the role may use; create one (CREATE SCHEMA), grant the role "
            + "USAGE on it, or set search_path."
        #expect(noSchema.stderr.hasSuffix(noSchemaReason + "\n"), "\(noSchema)")

        // A schema that exists but that the role may not use is not there for it either.
        let closed = try TestSchema()
        defer { try? closed.drop() }
        try closed.execute(PostgresSQL("REVOKE ALL ON SCHEMA " + closed.name + " FROM PUBLIC"))
        let outsider = CartCommand(
            location: TestSchema.url(try TestServer.value(TestServer.passwordURL), searchPath: closed.name), home: home)
        let noUsage = try outsider.run("db", "status")
        #expect(noUsage.status == 1 && noUsage.errorLines.count == 1 && noUsage.stderr.hasSuffix(noSchemaReason + "\n"), "\(noUsage)")

        let schema = try TestSchema()
        defer { try? schema.drop() }
        // The test schema is open to every role; this one may only look in.
        try schema.execute(PostgresSQL("REVOKE CREATE ON SCHEMA " + schema.name + " FROM PUBLIC"))
        let visitor = CartCommand(
            location: TestSchema.url(try TestServer.value(TestServer.passwordURL), searchPath: schema.name), home: home)
        let status = try visitor.run("db", "status")
        #expect(status.status == 1 && status.errorLines.count == 1, "\(status)")
        #expect(status.stderr.contains("holds no store, and the role may not create one there"), "\(status)")
        #expect(!status.stderr.contains("creates it."), "\(status)")
        // The commands that would create it say the same, not that the role may not write.
        for command in [["db", "init"], ["add", "apple"]] {
            let refused = try visitor.run(command)
            #expect(refused.status == 1 && refused.errorLines.count == 1, "\(refused)")
            #expect(refused.stderr.contains("holds no store, and the role may not create one there"), "\(refused)")
        }
        #expect(try schema.tables() == [])
        // The owner may create it, so for the owner it is simply not there yet.
        let owner = try CartCommand(location: schema.url, home: home).ok("db", "status")
        #expect(owner.stdout.contains("'cart db init' creates it"), "\(owner)")
    }
}
