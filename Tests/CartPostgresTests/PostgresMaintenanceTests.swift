import CartCore
import CartPostgres
import Foundation
import Testing

@Suite("PostgreSQL store maintenance", TestServer.requires())
struct PostgresMaintenanceTests {
    @Test("the registry opens postgresql:// and postgres:// locations, and status masks the password")
    func registryAndStatus() throws {
        let schema = try TestSchema(TestServer.passwordURL)
        defer { try? schema.drop() }
        let registry = StoreRegistry([PostgresCartRepository.backend])
        for url in [schema.url, schema.url.replacing("postgresql://", with: "postgres://")] {
            let status = try registry.open(url, options: StoreOptions(maximumConnections: 3)).status()
            #expect(status.kind == "postgresql")
            #expect(!status.location.contains("cart-password"))
            #expect(status.location.contains("cart_password:***@"))
            #expect(status.schemaVersion == 3)
            #expect(status.appliedMigrations.map(\.name) == ["0001_initial_schema", "0002_store_secret", "0003_quantity_and_instant_ranges"])
            #expect(status.pendingMigrations.isEmpty)
            let details = Dictionary(uniqueKeysWithValues: status.details.map { ($0.key, $0.value) })
            #expect(details["serverVersion"]?.hasPrefix("15") == true)
            #expect(details["database"] == "cart_test")
            #expect(details["schema"] == schema.name)
            // The status reports the server's connections, not the pool of the process asking.
            #expect(details["poolSize"] == nil)
            #expect((Int(details["openConnections"] ?? "") ?? 0) >= 1)
            #expect((Int(details["maxConnections"] ?? "") ?? 0) >= (Int(details["openConnections"] ?? "") ?? 0))
        }
    }

    @Test("a store opened without migrating shows its pending migration, and migrate applies it once")
    func migrateExplicitly() throws {
        let schema = try TestSchema()
        defer { try? schema.drop() }
        let repository = try schema.repository(StoreOptions(migrate: false))
        #expect(try repository.status().pendingMigrations == ["0001_initial_schema", "0002_store_secret", "0003_quantity_and_instant_ranges"])
        #expect(try schema.tables() == [])
        #expect(try repository.migrate() == ["0001_initial_schema", "0002_store_secret", "0003_quantity_and_instant_ranges"])
        #expect(try repository.migrate() == [])
        #expect(try repository.status().pendingMigrations.isEmpty)
        #expect(try CartService(repository: repository).settings() == .defaults)
    }

    /// A store with a cart of two lines and one order, made by the role of the location in
    /// `variable`.
    func busyStore(_ variable: String = TestServer.url) throws -> (TestSchema, PostgresCartRepository) {
        let schema = try TestSchema(variable)
        let repository = try schema.repository()
        let service = CartService(repository: repository)
        try service.addProduct(Product(sku: "apple", name: "Apple", price: Money(minorUnits: 125, currency: .usd)))
        try service.addProduct(Product(sku: "pear", name: "Pear", price: Money(minorUnits: 99, currency: .usd), stock: 5))
        try service.add("apple", to: "bob")
        _ = try service.checkout("bob")
        try service.add("apple", quantity: 2, to: "alice")
        try service.add("pear", to: "alice")
        return (schema, repository)
    }

    @Test("check finds nothing wrong with a healthy store")
    func healthy() throws {
        let (schema, repository) = try busyStore()
        defer { try? schema.drop() }
        #expect(try repository.check() == [])
    }

    @Test("check names summaries, totals and an order counter that another client put out of step")
    func inconsistentRows() throws {
        let (schema, repository) = try busyStore()
        defer { try? schema.drop() }
        try schema.execute("UPDATE carts SET line_count = 5, next_position = 2 WHERE id = 'alice'")
        try schema.execute("UPDATE orders SET total = total + 1 WHERE number = 1")
        try schema.execute("UPDATE order_numbers SET last_number = 3")
        #expect(
            try repository.check() == [
                "cart 'alice': its row counts 5 lines, cart_lines holds 2",
                "cart 'alice': its next line position 2 is not above its last line's, 2",
                "order 1: its totals (1 items, 126 minor units) are not its lines' (1 items, 125 minor units)",
                "the order counter is at 3, the highest order number is 1",
            ])
    }

    @Test("check names an order whose line another client stamped with another instant")
    func orderLineInstant() throws {
        let (schema, repository) = try busyStore()
        defer { try? schema.drop() }
        try schema.execute("UPDATE order_lines SET placed_at = placed_at - 1 WHERE order_number = 1")
        #expect(try repository.check() == ["order 1: 1 of its lines is stamped with another instant than the order"])
    }

    @Test("check names an order in another currency and a currency symbol the service refuses")
    func refusedStoredText() throws {
        let (schema, repository) = try busyStore()
        defer { try? schema.drop() }
        try schema.execute("UPDATE orders SET currency = 'EUR' WHERE number = 1")
        #expect(try repository.check() == ["order 1 is in 'EUR', the store in 'USD'"])
        // Read, such an order is refused rather than shown in the store's currency.
        let service = CartService(repository: repository)
        #expect(throws: StoredDataError("order 1 is in 'EUR', the store in 'USD'")) { try service.order(1) }
        // A code this build knows keeps its own symbol; another code's stored one is checked.
        try schema.execute("UPDATE settings SET currency_symbol = E'\\x1b[31m$'")
        #expect(try repository.check() == ["order 1 is in 'EUR', the store in 'USD'"])
        try schema.execute("UPDATE settings SET currency = 'XTS'")
        #expect(
            try repository.check() == [
                "the currency symbol '\\u{1B}[31m$' is not 1 to 8 printable characters",
                "order 1 is in 'EUR', the store in 'XTS'",
            ])
    }

    @Test("check names an order line's name with control characters, which no constraint refuses, and the order still reads")
    func orderLineNameWithControlCharacters() throws {
        let (schema, repository) = try busyStore()
        defer { try? schema.drop() }
        try schema.execute("UPDATE order_lines SET name = E'Ap\\x1bple\\u202e' WHERE order_number = 1")
        #expect(
            try repository.check() == [
                "the name of the line of order 1 for 'apple' is 'Ap\\u{1B}ple\\u{202E}': it contains control characters"
            ])
        #expect(try CartService(repository: repository).order(1).lines.map(\.name) == ["Ap\u{1B}ple\u{202E}"])
    }

    @Test("check and every read name a built-in currency stored with other digits")
    func builtInCurrencyWithOtherDigits() throws {
        let (schema, repository) = try busyStore()
        defer { try? schema.drop() }
        try schema.execute("UPDATE settings SET currency_exponent = 3")
        let message = "the store currency USD is stored with 3 minor-unit digits; it has 2"
        #expect(try repository.check() == [message])
        #expect(throws: StoredDataError(message)) { try CartService(repository: repository).cart("alice") }
    }

    @Test("check names an order whose lines another client made add up past 64 bits")
    func overflowingOrder() throws {
        let (schema, repository) = try busyStore()
        defer { try? schema.drop() }
        try schema.execute(
            """
            INSERT INTO order_lines (order_number, position, sku, name, unit_price, quantity, line_total, placed_at)
            SELECT 1, 100 + g, 'apple', 'Big', 4000000000000000000, 1, 4000000000000000000, placed_at
            FROM orders, generate_series(1, 3) AS g WHERE number = 1
            """)
        #expect(
            try repository.check()
                == (101...103).map { "the unit price of line \($0) of order 1 is 4000000000000000000, above 100000000" } + [
                    "order 1: its lines' items or totals add up to more than a 64-bit integer holds"
                ])
    }

    @Test("check names what a superuser let in past the constraints: dangling rows, values out of range")
    func bypassedConstraints() throws {
        let (schema, repository) = try busyStore()
        defer { try? schema.drop() }
        try schema.run(
            script: """
            SET session_replication_role = replica;
            DELETE FROM products WHERE sku = 'pear';
            ALTER TABLE products DROP CONSTRAINT products_price_check;
            UPDATE products SET price = -5 WHERE sku = 'apple';
            ALTER TABLE products ADD CONSTRAINT products_price_check CHECK (price BETWEEN 0 AND 100000000) NOT VALID;
            ALTER TABLE order_lines DISABLE TRIGGER ALL;
            """, asSuperuser: true)
        let problems = try repository.check()
        #expect(problems.contains("constraint products_price_check of products is NOT VALID: rows from before it are unchecked"))
        #expect(!problems.contains { $0.contains("break CHECK constraint") }, "the price is named once: \(problems)")
        #expect(problems.contains("the price of product 'apple' is -5, below 0"))
        #expect(problems.contains("foreign key violation: cart_lines (cart_id, sku) = ('alice', 'pear') references no row of products"))
        #expect(problems.contains { $0.hasPrefix("trigger RI_ConstraintTrigger") && $0.hasSuffix("of order_lines is disabled: its foreign key is not enforced") })
    }

    @Test("stats by day and month over an order a superuser dated at the 64-bit extremes name the damage, not an overflow",
        arguments: ["-9223372036854775808", "9223372036854775807"])
    func statsOverExtremeInstant(placedAt: String) throws {
        let (schema, repository) = try busyStore()
        defer { try? schema.drop() }
        try schema.run(
            script: "ALTER TABLE orders DROP CONSTRAINT orders_placed_at_range; UPDATE orders SET placed_at = \(placedAt)",
            asSuperuser: true)
        let service = CartService(repository: repository)
        for grouping in [OrderStatsGrouping.day, .month] {
            let error = #expect(throws: (any Error).self) { try service.orderStats(groupedBy: grouping) }
            #expect(error.map(ErrorCategory.init(of:)) == .damagedStore, "\(grouping): \(String(describing: error))")
        }
    }

    @Test("another client cannot store a line quantity above the largest cap or an instant past the year 9999",
        arguments: [
            "UPDATE cart_lines SET quantity = 1000001 WHERE cart_id = 'alice' AND sku = 'apple'",
            "UPDATE carts SET updated_at = 253402300800000 WHERE id = 'alice'",
            "UPDATE orders SET placed_at = -62167219200001",
            "UPDATE order_lines SET quantity = 1000001, line_total = unit_price * 1000001",
        ])
    func rangeChecks(_ statement: String) throws {
        let (schema, repository) = try busyStore()
        defer { try? schema.drop() }
        let before = try CartService(repository: repository).cartReport("alice")
        let error = #expect(throws: PostgresError.self) { try schema.run(script: statement) }
        #expect(error.map { "\($0)" }?.contains("_range\"") == true, "\(String(describing: error))")
        #expect(try CartService(repository: repository).cartReport("alice") == before)
        #expect(try repository.check() == [])
    }

    @Test(
        "a value stored past a dropped CHECK constraint is refused where it is read, naming its row, and check lists it",
        arguments: [
            ("products_stock_check", "UPDATE products SET stock = -3 WHERE sku = 'pear'", "the stock of product 'pear' is -3, below 0"),
            ("products_price_check", "UPDATE products SET price = -5 WHERE sku = 'apple'", "the price of product 'apple' is -5, below 0"),
            (
                "cart_lines_quantity_check", "UPDATE cart_lines SET quantity = -1 WHERE sku = 'pear'",
                "the quantity of 'pear' in cart 'alice' is -1, below 1"
            ),
            (
                "settings_max_line_quantity_check", "UPDATE settings SET max_line_quantity = 0",
                "the maximum line quantity setting is 0, below 1"
            ),
        ])
    func droppedCheckConstraint(_ constraint: String, _ update: String, _ finding: String) throws {
        let (schema, repository) = try busyStore()
        defer { try? schema.drop() }
        let table = String(update.split(separator: " ")[1])
        try schema.run(script: "ALTER TABLE \(table) DROP CONSTRAINT \(constraint); \(update)")
        let service = CartService(repository: repository)
        var reads: [(String, () throws -> Void)] = [
            ("cart report", { _ = try service.cartReport("alice") }), ("checkout", { _ = try service.checkout("alice") }),
        ]
        if table == "cart_lines" {
            // The cart's report leaves such a line out and names it among the problems, which
            // refuse its checkout; a read of the cart as it is, and a change that counts from
            // the line, refuse it.
            #expect(try service.cartReport("alice").problems.map(\.code) == [.damagedLine])
            #expect(throws: CartError.self) { try service.checkout("alice") }
            reads = [("cart", { _ = try service.cart("alice") }), ("add", { _ = try service.add("pear", to: "alice") })]
        }
        if table == "products" { reads.append(("products", { _ = try service.products(includeInactive: true) })) }
        for (name, read) in reads {
            #expect(throws: StoredDataError("\(finding)"), "\(name)") { try read() }
        }
        #expect(try repository.check() == ["constraint \(constraint) of \(table) is missing: the schema was changed outside cart", finding])
        if table == "products" {
            // An update that gives the value replaces it; one that keeps it is refused.
            let sku = update.contains("'pear'") ? "pear" : "apple"
            let mending =
                update.contains("stock")
                ? ProductUpdate(stock: StockLevel(5)) : ProductUpdate(price: try Money(parsing: "2.00", currency: .usd))
            #expect(throws: StoredDataError("\(finding)")) { try service.updateProduct(sku, with: ProductUpdate(name: "Renamed")) }
            try service.updateProduct(sku, with: mending)
            #expect(try repository.check() == ["constraint \(constraint) of \(table) is missing: the schema was changed outside cart"])
        }
    }

    @Test(
        "a line quantity stored past dropped CHECK constraints: set and delete mend the line, add refuses, carts lists it",
        arguments: [-1, 2_000_000, Int.max])
    func lineQuantityPastDroppedChecks(_ quantity: Int) throws {
        let (schema, repository) = try busyStore()
        defer { try? schema.drop() }
        let damage = "UPDATE cart_lines SET quantity = \(quantity) WHERE cart_id = 'alice' AND sku = 'pear'"
        try schema.run(
            script: "ALTER TABLE cart_lines DROP CONSTRAINT cart_lines_quantity_check; "
                + "ALTER TABLE cart_lines DROP CONSTRAINT cart_lines_quantity_range; \(damage)")
        let service = CartService(repository: repository)
        #expect(throws: StoredDataError.self) { try service.add("pear", to: "alice") }
        #expect(throws: StoredDataError.self) { try service.remove("pear", from: "alice") }
        let listed = try service.listCarts()
        #expect(listed.map(\.id) == ["alice", "bob"] && listed.map(\.totalItems) == [nil, 0])
        #expect(listed.first?.problem?.hasPrefix("a line's quantity is \(quantity), ") == true)
        let set = try service.setQuantity("pear", to: 2, in: "alice")
        #expect(set.previousQuantity == quantity && set.quantity == 2)
        #expect(try service.cart("alice").lines.map(\.quantity) == [2, 2])
        try schema.run(script: damage)
        #expect(try service.deleteLine("pear", from: "alice").previousQuantity == quantity)
        #expect(try service.cart("alice").lines.map(\.sku) == ["apple"])
        #expect(try service.listCarts().map(\.totalItems) == [2, 0])
    }

    @Test("an order's total stored past a dropped CHECK constraint is refused when read, and check lists it")
    func droppedOrderCheck() throws {
        let (schema, repository) = try busyStore()
        defer { try? schema.drop() }
        try schema.run(script: "ALTER TABLE orders DROP CONSTRAINT orders_total_check; UPDATE orders SET total = -5")
        let service = CartService(repository: repository)
        #expect(throws: StoredDataError("the total of order 1 is -5, below 0")) { try service.order(OrderNumber(rawValue: 1)) }
        #expect(try repository.check().contains("the total of order 1 is -5, below 0"))
    }

    @Test("a store secret stored past a dropped CHECK constraint is refused when read, and check lists it")
    func droppedSecretCheck() throws {
        let (schema, repository) = try busyStore()
        defer { try? schema.drop() }
        try schema.run(script: "ALTER TABLE store_secret DROP CONSTRAINT store_secret_secret_check; INSERT INTO store_secret (id, secret) VALUES (1, 'zz') ON CONFLICT (id) DO UPDATE SET secret = 'zz'")
        #expect(throws: StoreSecret.unusable) { try CartService(repository: repository).storeSecret() }
        #expect(
            try repository.check() == [
                "constraint store_secret_secret_check of store_secret is missing: the schema was changed outside cart",
                StoreSecret.unusable.message,
            ])
    }

    @Test("a cart version at the largest integer passes the constraints; check lists it and add refuses it")
    func versionAtTheLargestInteger() throws {
        let (schema, repository) = try busyStore()
        defer { try? schema.drop() }
        try schema.execute("UPDATE carts SET version = 9223372036854775807 WHERE id = 'alice'")
        let finding = "the version of cart 'alice' is 9223372036854775807, the largest integer"
        #expect(try repository.check() == [finding])
        #expect(throws: StoredDataError(finding)) { try CartService(repository: repository).add("apple", to: "alice") }
    }

    @Test("a line whose product a superuser deleted past the foreign key is a problem, and stops checkout")
    func lineWithoutProduct() throws {
        let (schema, repository) = try busyStore()
        defer { try? schema.drop() }
        try schema.run(
            script: "SET session_replication_role = replica; DELETE FROM products WHERE sku = 'pear'", asSuperuser: true)
        let service = CartService(repository: repository)
        let report = try service.cartReport("alice")
        #expect(report.cart.lines.map(\.sku) == ["apple"])
        #expect(report.problems == [.unknownProduct("pear")])
        #expect(throws: CartError.cannotCheckOut(cart: "alice", problems: [.unknownProduct("pear")])) {
            try service.checkout("alice")
        }
        try service.deleteLine("pear", from: "alice")
        #expect(try service.checkout("alice").order.lines.map(\.sku) == ["apple"])
    }

    @Test("no NOTICE the server sends reaches standard error")
    func noticesStayQuiet() throws {
        let schema = try TestSchema()
        defer { try? schema.drop() }
        // A record table of this tool's shape, and nothing in it: migrating creates it "if not
        // exists", which the server answers with a NOTICE.
        try schema.execute("CREATE TABLE schema_migrations (number integer PRIMARY KEY, name text NOT NULL UNIQUE, checksum text NOT NULL, applied_at bigint NOT NULL)")
        let printed = try capturingStandardError {
            let repository = try schema.repository()
            try CartService(repository: repository).addProduct(Product(sku: "fig", name: "Fig", price: Money(minorUnits: 40, currency: .usd)))
            _ = try repository.changeToken()
            _ = try repository.check()
        }
        // libpq's own notice printer starts each line "NOTICE:  "; a test's name may say NOTICE.
        #expect(!printed.contains("NOTICE:"))
        #expect(!printed.contains("already exists, skipping"))
    }
}
