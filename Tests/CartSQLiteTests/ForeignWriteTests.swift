import CartCore
import CartTestSupport
import CartSQLite
import Foundation
import Testing

/// Rows another client can store that the schema allows but this tool never writes: each must
/// give a clear error or a correct result, never a crash, a silent skip or a half-changed file.
@Suite("Rows written by another client")
struct ForeignWriteTests {
    @Test("a cart version at the largest integer refuses the next change with one error and changes nothing")
    func versionAtMaximum() throws {
        let directory = try TemporaryDirectory()
        let (path, service) = try aliceFile(in: directory, products: 2)
        try sqlite(path, "UPDATE carts SET version = 9223372036854775807 WHERE id = 'alice'")
        let before = try rows(path, Self.snapshot)
        for change in [{ _ = try service.add("sku-1", to: "alice") }, { _ = try service.clear("alice") }] {
            #expect {
                try change()
            } throws: { error in
                let text = String(describing: error)
                return error is StoredDataError && ErrorCategory(of: error) == .damagedStore
                    && text.contains("the version of cart 'alice' is 9223372036854775807") && !text.contains("\n")
            }
        }
        #expect(try rows(path, Self.snapshot) == before)
        #expect(try service.cart("alice").version == Int.max)
    }

    @Test("orders placed at the extreme integers: stats by day and month at the widest offsets name the stored value, never trap")
    func extremeOrderTimes() throws {
        let directory = try TemporaryDirectory()
        let (path, service) = try aliceFile(in: directory, products: 2)
        _ = try service.checkout("alice")
        try service.add("sku-1", to: "alice")
        _ = try service.checkout("alice")
        try sqlite(
            path,
            "UPDATE orders SET placed_at = CASE number WHEN 1 THEN 9223372036854775807 ELSE -9223372036854775807 - 1 END")
        for minutes in [0, UTCOffset.maxMinutes, -UTCOffset.maxMinutes] {
            let offset = try #require(UTCOffset(minutes: minutes))
            for grouping in [OrderStatsGrouping.day, .month] {
                #expect(throws: StoredDataError.self, "\(grouping) at \(offset)") {
                    try service.orderStats(groupedBy: grouping, utcOffset: offset)
                }
            }
        }
    }

    @Test("a next_position at the largest integer refuses a new line with one error and changes nothing")
    func positionAtMaximum() throws {
        let directory = try TemporaryDirectory()
        let (path, service) = try aliceFile(in: directory, products: 2)
        try sqlite(path, "UPDATE carts SET next_position = 9223372036854775807 WHERE id = 'alice'")
        let before = try rows(path, Self.snapshot)
        #expect {
            try service.add("sku-1", to: "alice")
        } throws: { error in
            error is StoredDataError && String(describing: error).contains("the next line position of cart 'alice'")
        }
        #expect(try rows(path, Self.snapshot) == before)
        // An existing line still grows: it takes no new position.
        try service.add("sku-0", to: "alice")
        #expect(try service.cart("alice").totalItems == 2)
    }

    /// Every cart with its version and lines, as one comparable value.
    private static let snapshot = "SELECT c.id || ':' || c.version || ':' || c.line_count || ':' || c.next_position || ':' || "
        + "(SELECT group_concat(sku || '=' || quantity || '@' || position) FROM cart_lines WHERE cart_id = c.id) "
        + "FROM carts AS c"

    @Test(
        "a product price, stock or active flag stored out of range: an update that gives it replaces it, one that keeps it refuses, delete works",
        arguments: [("price", "-100", "below 0"), ("stock", "-3", "below 0"), ("active", "7", "above 1")])
    func productValueOutOfRange(_ column: String, _ value: String, _ outside: String) throws {
        let directory = try TemporaryDirectory()
        let (path, service) = try aliceFile(in: directory, products: 3)
        try service.updateProduct("sku-1", with: ProductUpdate(stock: StockLevel(4)))
        try service.updateProduct("sku-2", with: ProductUpdate(stock: StockLevel(4)))
        let damage = { (sku: String) in
            try sqlite(path, "PRAGMA ignore_check_constraints = ON; UPDATE products SET \(column) = \(value) WHERE sku = '\(sku)'")
        }
        try damage("sku-0")
        try damage("sku-1")
        try damage("sku-2")
        let name = column == "active" ? "active flag" : column
        let refused = StoredDataError("the \(name) of product 'sku-0' is \(value), \(outside)")
        #expect(throws: refused) { try service.products(includeInactive: true) }
        let before = try rows(path, "SELECT sku || ':' || name || ':' || price || ':' || active || ':' || ifnull(stock, '-') FROM products ORDER BY sku")
        // An update that keeps the value, or counts from it, is refused and changes nothing.
        let keeping = column == "price" ? ProductUpdate(stock: StockLevel(9)) : ProductUpdate(price: try Money(parsing: "2.00", currency: .usd))
        #expect(throws: refused) { try service.updateProduct("sku-0", with: keeping) }
        #expect(throws: refused) { try service.updateProduct("sku-0", with: ProductUpdate(name: "Renamed")) }
        if column == "stock" {
            #expect(throws: refused) { try service.updateProduct("sku-0", with: ProductUpdate(stockChange: 1)) }
        }
        #expect(try rows(path, "SELECT sku || ':' || name || ':' || price || ':' || active || ':' || ifnull(stock, '-') FROM products ORDER BY sku") == before)

        // One that gives the value replaces it, and the cart holding it reads again.
        let mending: ProductUpdate
        switch column {
        case "price": mending = ProductUpdate(price: try Money(parsing: "2.00", currency: .usd))
        case "stock": mending = ProductUpdate(stock: StockLevel(5))
        default: mending = ProductUpdate(isActive: true)
        }
        let mended = try service.updateProduct("sku-0", with: mending)
        switch column {
        case "price": #expect(mended.price.minorUnits == 200)
        case "stock": #expect(mended.stock == 5)
        default: #expect(mended.isActive)
        }
        #expect(try service.cartReport("alice").cart.lines.map(\.sku) == ["sku-0"])
        // A product no cart holds is deleted, also with the value as stored.
        let deleted = try service.deleteProduct("sku-1")
        switch column {
        case "price": #expect(deleted.price.minorUnits == -100)
        case "stock": #expect(deleted.stock == -3)
        default: #expect(deleted.sku == "sku-1")
        }
        try service.updateProduct("sku-2", with: mending)
        #expect(try service.products(includeInactive: true).map(\.sku) == ["sku-0", "sku-2"])
        #expect(try SQLiteCartRepository(path: path).check() == [])
    }

    @Test("a product name of zero-width characters alone, which earlier versions stored, still checks out")
    func invisibleStoredName() throws {
        let directory = try TemporaryDirectory()
        let (path, service) = try aliceFile(in: directory)
        try sqlite(path, "UPDATE products SET name = char(8203) WHERE sku = 'sku-0'")
        #expect(try service.checkout("alice").order.lines.map(\.name) == ["\u{200B}"])
        #expect(try SQLiteCartRepository(path: path).check() == [])
    }

    @Test("a line whose product another client deleted is reported as unknown and refuses checkout until removed")
    func ghostLineIsAProblem() throws {
        let directory = try TemporaryDirectory()
        let (path, service) = try aliceFile(in: directory, products: 2)
        try service.add("sku-1", to: "alice")
        // Foreign keys off: the line stays, pointing at nothing, and no cart line can show it.
        try sqlite(path, "DELETE FROM products WHERE sku = 'sku-1'")
        let report = try service.cartReport("alice")
        #expect(report.cart.lines.map(\.sku) == ["sku-0"])
        #expect(report.problems == [.unknownProduct("sku-1")])
        let before = try rows(path, Self.snapshot)
        #expect(throws: CartError.cannotCheckOut(cart: "alice", problems: [.unknownProduct("sku-1")])) {
            try service.checkout("alice")
        }
        #expect(try rows(path, Self.snapshot) == before)
        try service.deleteLine("sku-1", from: "alice")
        #expect(try service.cartReport("alice").problems.isEmpty)
        #expect(try service.checkout("alice").order.lines.map(\.sku) == ["sku-0"])
        #expect(try rows(path, "SELECT count(*) FROM cart_lines WHERE cart_id = 'alice'") == ["0"])
    }

    @Test("merge counts a target's line whose product another client deleted against the lines cap, as add does")
    func mergeCountsLineWithoutProduct() throws {
        let directory = try TemporaryDirectory()
        let (path, service) = try aliceFile(in: directory, products: 3)
        try service.add("sku-1", to: "alice")
        try service.updateSettings(maxLinesPerCart: 2)
        try service.add("sku-2", to: "bob")
        try sqlite(path, "DELETE FROM products WHERE sku = 'sku-1'")
        let result = try service.merge(from: "bob", into: "alice")
        #expect(result.mergedLines == 0)
        #expect(result.adjustments.map(\.description) == ["sku-2: kept 0 of 1: \(MergeResult.Reason.lineCountCap(2))"])
        #expect(try rows(path, "SELECT count(*) FROM cart_lines WHERE cart_id = 'alice'") == ["2"])
    }

    @Test("db check names a cart whose line summary another client's writes made wrong")
    func integrityCheckFindsSummaryMismatch() throws {
        let directory = try TemporaryDirectory()
        let (path, _) = try aliceFile(in: directory, products: 2)
        let repository = try SQLiteCartRepository(path: path)
        #expect(try repository.check() == [])
        try sqlite(path, "INSERT INTO cart_lines (cart_id, sku, quantity, position) VALUES ('alice', 'sku-1', 1, 7)")
        #expect(
            try repository.check() == [
                "cart 'alice': its row counts 1 line, cart_lines holds 2",
                "cart 'alice': its next line position 2 is not above its last line's, 7",
            ])
    }

    @Test("db check names orders whose totals another client's writes made wrong, orders without lines or in another currency, and missing numbers")
    func integrityCheckFindsOrderMismatch() throws {
        let directory = try TemporaryDirectory()
        let (path, service) = try aliceFile(in: directory)
        for cart in ["alice", "bob", "carol"] {
            if cart != "alice" { try service.add("sku-0", to: cart) }
            _ = try service.checkout(cart)
        }
        let repository = try SQLiteCartRepository(path: path)
        #expect(try repository.check() == [])
        let price = try service.order(2).total.minorUnits
        try sqlite(
            path,
            """
            UPDATE orders SET total = total + 1 WHERE number = 2;
            DELETE FROM order_lines WHERE order_number IN (1, 3);
            DELETE FROM orders WHERE number = 1;
            UPDATE orders SET currency = 'EUR' WHERE number = 3;
            """)
        #expect(
            try repository.check() == [
                "order 2: its totals (1 items, \(price + 1) minor units) are not its lines' (1 items, \(price) minor units)",
                "order 3 has no lines",
                "2 orders are numbered up to 3: numbers are missing",
                "order 3 is in 'EUR', the store in 'USD'",
            ])
        // Read, such an order is refused rather than shown in the store's currency.
        #expect(throws: StoredDataError("order 3 is in 'EUR', the store in 'USD'")) { try service.order(3) }
        #expect(throws: StoredDataError("order 3 is in 'EUR', the store in 'USD'")) { try service.orders(matching: OrderQuery()) }
    }

    @Test("db check names an order whose lines another client stamped with another instant, which filters by product and time read")
    func integrityCheckFindsOrderLineInstant() throws {
        let directory = try TemporaryDirectory()
        let (path, service) = try aliceFile(in: directory, products: 2)
        try service.add("sku-1", to: "alice")
        let placed = try service.checkout("alice").order.placedAt
        let repository = try SQLiteCartRepository(path: path)
        #expect(try repository.check() == [])
        try sqlite(path, "UPDATE order_lines SET placed_at = placed_at + 1000 WHERE order_number = 1")
        #expect(try repository.check() == ["order 1: 2 of its lines are stamped with another instant than the order"])
        // What the finding is about: the order is placed in the second, but not found there by product.
        let second = OrderQuery(placedOnOrAfter: placed, placedBefore: placed.addingTimeInterval(1))
        #expect(try service.orders(matching: second).orders.count == 1)
        #expect(
            try service.orders(matching: OrderQuery(placedOnOrAfter: placed, placedBefore: placed.addingTimeInterval(1), sku: "sku-0"))
                .orders.isEmpty)
    }

    @Test("a text another client stored as bytes that are not UTF-8 is refused when read, never changed, and db check names it")
    func invalidUTF8() throws {
        let directory = try TemporaryDirectory()
        let (path, service) = try aliceFile(in: directory, products: 2)
        _ = try service.checkout("alice")
        try service.add("sku-1", to: "bob")
        let repository = try SQLiteCartRepository(path: path)
        #expect(try repository.check() == [])
        try sqlite(
            path,
            """
            UPDATE products SET name = CAST(X'4170706C65FF' AS TEXT) WHERE sku = 'sku-1';
            UPDATE order_lines SET name = CAST(X'FF' AS TEXT) WHERE order_number = 1;
            """)
        #expect(
            try repository.check() == [
                "the name of product 'sku-1' is not valid UTF-8", "the name of a line of order 1 is not valid UTF-8",
            ])
        let refused = StoredDataError("a text in the column 'name' is not valid UTF-8")
        #expect(throws: refused) { try service.cart("bob") }
        #expect(throws: refused) { try service.checkout("bob") }
        #expect(throws: refused) { try service.order(1) }
        #expect(try service.orders(matching: OrderQuery(cartID: "bob")).orders.isEmpty, "checkout placed no order")
    }

    @Test("a cart line another client gave a quantity out of range: reads refuse it, clear mends the cart")
    func clearMendsOutOfRangeQuantity() throws {
        let directory = try TemporaryDirectory()
        let (path, service) = try aliceFile(in: directory, products: 2)
        try service.add("sku-1", to: "alice")
        try sqlite(path, "UPDATE cart_lines SET quantity = 9223372036854775807 WHERE cart_id = 'alice' AND sku = 'sku-0'")
        #expect(throws: StoredDataError("the quantity of 'sku-0' in cart 'alice' is 9223372036854775807, the largest integer")) {
            try service.cart("alice")
        }
        let cleared = try service.clear("alice")
        #expect(cleared.changed)
        #expect(try service.cart("alice").lines.isEmpty)
        #expect(try SQLiteCartRepository(path: path).check() == [])
    }

    @Test(
        "a cart line another client gave a quantity out of range: set and delete mend that line, add and remove refuse",
        arguments: ["0", "-1", "1000001", "9223372036854775807"])
    func setAndDeleteMendOutOfRangeQuantity(_ quantity: String) throws {
        let directory = try TemporaryDirectory()
        let (path, service) = try aliceFile(in: directory, products: 2)
        try service.add("sku-1", to: "alice")
        let damage = """
            PRAGMA ignore_check_constraints = ON;
            UPDATE cart_lines SET quantity = \(quantity) WHERE cart_id = 'alice' AND sku = 'sku-0'
            """
        try sqlite(path, damage)
        let before = try rows(path, Self.snapshot)
        for change in [{ _ = try service.add("sku-0", to: "alice") }, { _ = try service.remove("sku-0", from: "alice") }] {
            #expect {
                try change()
            } throws: { error in
                error is StoredDataError && String(describing: error).contains("the quantity of 'sku-0' in cart 'alice' is \(quantity)")
            }
        }
        #expect(try rows(path, Self.snapshot) == before, "refused changes change nothing")
        let listed = try #require(try service.listCarts().first)
        #expect(listed.totalItems == nil && listed.lineCount == 2)
        #expect(listed.problem?.hasPrefix("a line's quantity is \(quantity), ") == true)

        let set = try service.setQuantity("sku-0", to: 2, in: "alice")
        #expect(set.changed && set.quantity == 2 && set.previousQuantity == Int(quantity))
        #expect(try service.cart("alice").lines.map(\.quantity) == [2, 1])
        #expect(try SQLiteCartRepository(path: path).check() == [])

        try sqlite(path, damage)
        let deleted = try service.deleteLine("sku-0", from: "alice")
        #expect(deleted.changed && deleted.previousQuantity == Int(quantity))
        #expect(try service.cart("alice").lines.map(\.sku) == ["sku-1"])
        #expect(try service.listCarts().map(\.totalItems) == [1])
        #expect(try SQLiteCartRepository(path: path).check() == [])
    }

    @Test("db check names an order line's name with control characters, which reads still show")
    func orderLineNameWithControlCharacters() throws {
        let directory = try TemporaryDirectory()
        let (path, service) = try aliceFile(in: directory)
        _ = try service.checkout("alice")
        let repository = try SQLiteCartRepository(path: path)
        #expect(try repository.check() == [])
        try sqlite(path, "UPDATE order_lines SET name = 'Ap' || char(27) || 'ple' || char(8238) WHERE order_number = 1")
        #expect(
            try repository.check() == [
                "the name of the line of order 1 for 'sku-0' is 'Ap\\u{1B}ple\\u{202E}': it contains control characters"
            ])
        // The order is history as stored: shown, with the name as it is.
        #expect(try service.order(1).lines.map(\.name) == ["Ap\u{1B}ple\u{202E}"])
    }

    @Test("db check names each SKU and cart ID another client stored that the service would not take as it is")
    func unusableIdentifiers() throws {
        let directory = try TemporaryDirectory()
        let (path, service) = try aliceFile(in: directory)
        _ = try service.checkout("alice")
        let repository = try SQLiteCartRepository(path: path)
        // Each passes the schema's CHECKs, which compare only the ordering of a SKU.
        try sqlite(
            path,
            """
            INSERT INTO products (sku, name, price, active, stock) VALUES
                ('bad' || char(10) || 'sku', 'X', 100, 1, NULL), ('del' || char(127), 'X', 100, 1, NULL),
                ('tab' || char(9) || 'x', 'X', 100, 1, NULL), ('trail ', 'X', 100, 1, NULL);
            INSERT INTO carts (id, version, updated_at) VALUES ('bob ', 1, 0);
            UPDATE order_lines SET sku = 'sku-0 ' WHERE order_number = 1;
            UPDATE orders SET cart_id = 'alice ' WHERE number = 1;
            """)
        #expect(
            try repository.check() == [
                "the SKU of a product is 'bad\\nsku': it contains control characters",
                "the SKU of a product is 'del\\u{7F}': it contains control characters",
                "the SKU of a product is 'tab\\tx': it contains control characters",
                "the SKU of a product is 'trail ': it has leading or trailing space",
                "the ID of a cart is 'bob ': it has leading or trailing space",
                "the cart ID of order 1 is 'alice ': it has leading or trailing space",
                "the SKU of a line of order 1 is 'sku-0 ': it has leading or trailing space",
            ])
    }

    @Test("db check names an order whose lines another client made add up past 64 bits, and goes on")
    func integrityCheckOverflowingOrder() throws {
        let directory = try TemporaryDirectory()
        let (path, service) = try aliceFile(in: directory)
        _ = try service.checkout("alice")
        for cart in ["bob", "carol"] {
            try service.add("sku-0", to: cart)
            _ = try service.checkout(cart)
        }
        // Order 3: lines of -2^63 + 1 and -2, past the CHECKs, under a total of -2^63 that a
        // sum rounded to a REAL would equal.
        try sqlite(
            path,
            """
            INSERT INTO order_lines (order_number, position, sku, name, unit_price, quantity, line_total, placed_at)
            SELECT 1, 100 + n.column1, 'sku-0', 'Big', 4000000000000000000, 1, 4000000000000000000, placed_at
            FROM orders, (VALUES (1), (2), (3)) AS n WHERE number = 1;
            UPDATE orders SET total = total + 1 WHERE number = 2;
            PRAGMA ignore_check_constraints = ON;
            DELETE FROM order_lines WHERE order_number = 3;
            INSERT INTO order_lines (order_number, position, sku, name, unit_price, quantity, line_total, placed_at)
            SELECT 3, n.column1, 'sku-0', 'Negative', n.column2, 1, n.column2, placed_at
            FROM orders, (VALUES (1, -9223372036854775807), (2, -2)) AS n WHERE number = 3;
            UPDATE orders SET total = -9223372036854775807 - 1, total_items = 2 WHERE number = 3;
            """)
        let problems = try SQLiteCartRepository(path: path).check()
        #expect(problems.contains("order 1: its lines' items or totals add up to more than a 64-bit integer holds"), "\(problems)")
        #expect(problems.contains { $0.hasPrefix("order 2: its totals") }, "\(problems)")
        #expect(problems.contains("order 3: its lines' items or totals add up to more than a 64-bit integer holds"), "\(problems)")
    }

    @Test("values of another type in a table whose STRICT another client removed are refused by name, never read as 0")
    func wrongTypesAreRefused() throws {
        let directory = try TemporaryDirectory()
        let (path, service) = try aliceFile(in: directory, products: 2)
        try service.add("sku-1", to: "alice")
        // A new schema text takes effect for connections opened after it is written.
        try sqlite(
            path,
            """
            PRAGMA writable_schema = ON;
            UPDATE sqlite_schema SET sql = replace(replace(sql, ') STRICT, WITHOUT ROWID', ') WITHOUT ROWID'), 'price INTEGER NOT NULL', 'price INTEGER')
            WHERE name = 'products';
            """)
        try sqlite(
            path,
            """
            PRAGMA ignore_check_constraints = ON;
            UPDATE products SET price = 'abc' WHERE sku = 'sku-0';
            UPDATE products SET price = NULL, stock = 1.5 WHERE sku = 'sku-1';
            """)
        let before = try rows(path, Self.snapshot)
        let reopened = CartService(repository: try SQLiteCartRepository(path: path))
        for read in [{ _ = try reopened.cart("alice") }, { _ = try reopened.checkout("alice") }, { _ = try reopened.add("sku-0", to: "alice") }] {
            #expect {
                try read()
            } throws: { error in
                error is StoredDataError && String(describing: error).contains("the price of product 'sku-0' is the text 'abc', not an integer")
            }
        }
        #expect {
            try reopened.product("sku-1")
        } throws: { error in
            error is StoredDataError && String(describing: error).contains("the price of product 'sku-1' is NULL, not an integer")
        }
        #expect(try rows(path, Self.snapshot) == before)
        #expect(try rows(path, "SELECT count(*) FROM orders") == ["0"])
        let problems = try SQLiteCartRepository(path: path).check()
        #expect(
            problems == [
                "CHECK constraint failed in products",
                "table products is not as the migrations made it: the schema was changed outside cart",
                "the price of product 'sku-0' is the text 'abc', not an integer",
                "the price of product 'sku-1' is NULL, not an integer",
                "the stock of product 'sku-1' is the real number 1.5, not an integer",
            ], "\(problems)")
    }

    @Test("a currency symbol holding a terminal escape is refused by every read and named by db check")
    func escapingCurrencySymbol() throws {
        let directory = try TemporaryDirectory()
        let (path, _) = try aliceFile(in: directory)
        try sqlite(path, "UPDATE settings SET currency = 'XYZ', currency_symbol = char(27) || '[31m$'")
        let reopened = CartService(repository: try SQLiteCartRepository(path: path))
        #expect {
            _ = try reopened.cart("alice")
        } throws: { error in
            error as? StoredDataError == .unusableCurrencySymbol("\u{1B}[31m$")
                && String(describing: error).contains("the currency symbol '\\u{1B}[31m$'")
        }
        #expect(try SQLiteCartRepository(path: path).check() == [StoredDataError.unusableCurrencySymbol("\u{1B}[31m$").message])
        // A code this build knows uses its own symbol; an empty symbol reads as none.
        for (code, symbol, expected) in [("USD", "char(27)", "$"), ("XTS", "''", nil)] as [(String, String, String?)] {
            try sqlite(path, "UPDATE settings SET currency = '\(code)', currency_symbol = \(symbol)")
            let service = CartService(repository: try SQLiteCartRepository(path: path))
            #expect(try service.settings().currency.symbol == expected, "\(code)")
            #expect(try SQLiteCartRepository(path: path).check() == [], "\(code)")
        }
    }

    @Test("a built-in currency stored with other digits is refused by every read and named by db check")
    func builtInCurrencyWithOtherDigits() throws {
        let directory = try TemporaryDirectory()
        let (path, _) = try aliceFile(in: directory)
        // Read as the table's USD, a price of 150 would turn from 0.150 into 1.50.
        try sqlite(path, "UPDATE settings SET currency_exponent = 3")
        let message = "the store currency USD is stored with 3 minor-unit digits; it has 2"
        let reopened = CartService(repository: try SQLiteCartRepository(path: path))
        #expect(throws: StoredDataError(message)) { try reopened.cart("alice") }
        #expect(throws: StoredDataError(message)) { try reopened.products() }
        #expect(try SQLiteCartRepository(path: path).check() == [message])
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
