import CartCore
import CartTestSupport
import CartSQLite
import Foundation
import Testing

/// The built `cart-torture`, beside the test binary.
func tortureBinary() throws -> String {
    let path = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        .appendingPathComponent("cart-torture").path
    try #require(FileManager.default.isExecutableFile(atPath: path), "cart-torture is not built at \(path)")
    return path
}

/// What `cart-torture probe` reported: each operation's outcome, by name, and whether it ran
/// to the end rather than dying on a signal.
struct ProbeReport: CustomStringConvertible {
    /// Each operation: its error's category and description, or no category and what it printed
    /// after `ok`.
    var outcomes: [(name: String, category: String?, message: String)] = []
    var finished = false
    var status: Int32 = 0
    var output = ""

    var description: String { "status \(status), finished \(finished):\n\(output)" }

    /// Runs the probe on `path`, through `launcher` (`setpriv …`) if given.
    init(path: String, readsOnly: Bool = false, busyTimeoutMilliseconds: Int = 10_000, launcher: [String] = []) throws {
        let command =
            launcher + [try tortureBinary(), "probe", "--db", path, "--busy-timeout-ms", String(busyTimeoutMilliseconds)]
            + (readsOnly ? ["--only", "reads"] : [])
        let result = try runProcess(command[0], Array(command.dropFirst()))
        status = result.status
        output = result.stdout + result.stderr
        for line in result.stdout.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "done" { finished = true; continue }
            let fields = line.split(separator: "\t", maxSplits: 2).map(String.init)
            guard fields.count >= 2 else { continue }
            let text = fields.count > 2 ? fields[2] : ""
            outcomes.append(fields[1] == "ok" ? (fields[0], nil, text) : (fields[0], fields[1], text))
        }
    }

    /// What the operation `name` printed after `ok`; `nil` when it failed or did not run.
    func detail(_ name: String) -> String? {
        outcomes.first { $0.name == name && $0.category == nil }?.message
    }

    /// The operations that failed, with their errors.
    var failures: [(name: String, category: String, message: String)] {
        outcomes.compactMap { outcome in outcome.category.map { (outcome.name, $0, outcome.message) } }
    }
}

/// A small store with a row in every table: products `apple` (stock 50), `banana`, `cherry`
/// (inactive); carts `alice` (apple × 2, banana × 1) and `bob` (apple × 1); orders 1 (with a
/// key) and 2. Returns its path, its service released so the file stands alone.
func probeTemplate(in directory: TemporaryDirectory, name: String = "template.sqlite3") throws -> String {
    let path = directory.path(name)
    let service = CartService(repository: try SQLiteCartRepository(path: path), clock: fixedClock)
    try service.importProducts([
        Product(sku: "apple", name: "Apple", price: Money(minorUnits: 100, currency: .usd), stock: 50),
        Product(sku: "banana", name: "Banana", price: Money(minorUnits: 200, currency: .usd)),
        Product(sku: "cherry", name: "Cherry", price: Money(minorUnits: 300, currency: .usd)),
    ])
    try service.add("apple", to: "dave")
    _ = try service.checkout("dave", idempotencyKey: "first")
    try service.add("banana", quantity: 2, to: "erin")
    _ = try service.checkout("erin")
    try service.add("apple", quantity: 2, to: "alice")
    try service.add("banana", to: "alice")
    try service.add("apple", to: "bob")
    try service.updateProduct("cherry", with: ProductUpdate(isActive: false))
    return path
}

@Suite("Integers another client stored")
struct StoredValueTests {
    /// Every integer column of the schema, the row the attack changes, and the range the
    /// service works with (`StoredRange`, and below the largest integer for counters).
    static let columns: [(table: String, column: String, row: String, range: ClosedRange<Int64>)] = [
        ("settings", "id", "id = 1", 1...1),
        ("settings", "currency_exponent", "id = 1", 0...4),
        ("settings", "max_line_quantity", "id = 1", 1...1_000_000),
        ("settings", "max_lines_per_cart", "id = 1", 1...10_000),
        ("products", "price", "sku = 'apple'", 0...100_000_000),
        ("products", "active", "sku = 'apple'", 0...1),
        ("products", "stock", "sku = 'apple'", 0...Int64.max),
        ("carts", "version", "id = 'alice'", 1...Int64.max - 1),
        ("carts", "updated_at", "id = 'alice'", UTCCalendar.millisecondRange),
        ("carts", "line_count", "id = 'alice'", 0...Int64.max - 1),
        ("carts", "next_position", "id = 'alice'", 1...Int64.max - 1),
        ("cart_lines", "quantity", "cart_id = 'alice' AND sku = 'apple'", 1...1_000_000),
        ("cart_lines", "position", "cart_id = 'alice' AND sku = 'apple'", 1...Int64.max),
        ("orders", "number", "number = 2", 1...Int64.max - 1),
        ("orders", "placed_at", "number = 1", UTCCalendar.millisecondRange),
        ("orders", "total_items", "number = 1", 1...Int64.max),
        ("orders", "total", "number = 1", 0...Int64.max),
        ("order_lines", "order_number", "order_number = 2", 1...Int64.max - 1),
        ("order_lines", "position", "order_number = 1", 1...Int64.max),
        ("order_lines", "unit_price", "order_number = 1", 0...100_000_000),
        ("order_lines", "quantity", "order_number = 1", 1...1_000_000),
        ("order_lines", "line_total", "order_number = 1", 0...Int64.max),
        ("order_lines", "placed_at", "order_number = 1", UTCCalendar.millisecondRange),
        // Only the order of the numbers matters: a larger one keeps it, a smaller one is refused.
        ("schema_migrations", "number", "number = 3", 3...Int64.max),
        ("schema_migrations", "applied_at", "number = 1", UTCCalendar.millisecondRange),
    ]

    /// Categories a damaged value may give: never `invalidInput` (the calls are well formed),
    /// and `storageFailure` only for a constraint of the schema that another client's rows
    /// break, said in words (`a row with the same key already exists (SQLite error 19: …)`).
    static func acceptable(_ category: String, _ message: String) -> Bool {
        let categories: Set = ["damagedStore", "refused", "notFound", "conflict", "staleVersion", "incompatibleStore"]
        return categories.contains(category)
            || (category == "storageFailure" && message.contains("(SQLite error 19: ") && !message.hasPrefix("SQLite"))
    }

    @Test(
        "each integer column at the largest and smallest integer, 0 and -1: every service operation runs without a trap and fails, if at all, in one categorized line",
        arguments: [Int64.max, Int64.min, 0, -1])
    func everyColumnEveryOperation(_ value: Int64) throws {
        let directory = try TemporaryDirectory()
        let template = try probeTemplate(in: directory)
        var problems: [String] = []
        for (index, target) in Self.columns.enumerated() {
            let path = directory.path("attack-\(index).sqlite3")
            try FileManager.default.copyItem(atPath: template, toPath: path)
            let attack = "UPDATE \(target.table) SET \(target.column) = \(value) WHERE \(target.row)"
            do {
                try sqlite(path, "PRAGMA ignore_check_constraints = ON; " + attack)
            } catch {
                // A key that would collide, or a type STRICT refuses: the attack cannot be stored.
                continue
            }
            let report = try ProbeReport(path: path)
            let scenario = "\(target.table).\(target.column) = \(value)"
            guard report.status == 0, report.finished else {
                problems.append("\(scenario): the probe did not finish: \(report)")
                continue
            }
            for failure in report.failures where !Self.acceptable(failure.category, failure.message) || failure.message.contains("\n") {
                problems.append("\(scenario): \(failure.name): \(failure.category): \(failure.message)")
            }
            if !target.range.contains(value) {
                try FileManager.default.copyItem(atPath: template, toPath: path + ".check")
                try sqlite(path + ".check", "PRAGMA ignore_check_constraints = ON; " + attack)
                let findings = (try? SQLiteCartRepository(path: path + ".check", migrate: false).check()) ?? ["refused"]
                if findings.isEmpty { problems.append("\(scenario): db check found nothing") }
            }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test("db check names every value the service cannot work with, each in one line")
    func checkListsEveryValue() throws {
        let directory = try TemporaryDirectory()
        let path = try probeTemplate(in: directory)
        try sqlite(
            path,
            """
            PRAGMA ignore_check_constraints = ON;
            UPDATE carts SET version = 9223372036854775807 WHERE id = 'alice';
            UPDATE carts SET updated_at = -9223372036854775808 WHERE id = 'bob';
            UPDATE cart_lines SET quantity = 2000000 WHERE cart_id = 'alice' AND sku = 'apple';
            UPDATE products SET stock = -1 WHERE sku = 'apple';
            UPDATE products SET price = 100000001 WHERE sku = 'banana';
            UPDATE orders SET placed_at = 9223372036854775807 WHERE number = 1;
            UPDATE order_lines SET unit_price = -5 WHERE order_number = 2;
            UPDATE orders SET number = 9223372036854775807 WHERE number = 2;
            UPDATE settings SET currency = 'U$D', max_line_quantity = 0;
            """)
        let findings = try SQLiteCartRepository(path: path, migrate: false).check()
        for expected in [
            "the store currency 'U$D' is not three capital letters A to Z",
            "the maximum line quantity setting is 0, below 1",
            "the stock of product 'apple' is -1, below 0",
            "the price of product 'banana' is 100000001, above 100000000",
            "the version of cart 'alice' is 9223372036854775807, the largest integer",
            "the time cart 'bob' last changed is -9223372036854775808, below -62167219200000",
            "the quantity of 'apple' in cart 'alice' is 2000000, above 1000000",
            "an order number is 9223372036854775807, the largest integer",
            "the time order 1 was placed is 9223372036854775807, the largest integer",
            "the unit price of line 1 of order 2 is -5, below 0",
        ] {
            #expect(findings.contains(expected), "\(expected)\nin:\n\(findings.joined(separator: "\n"))")
        }
        #expect(findings.allSatisfy { !$0.contains("\n") })
    }

    @Test(
        "a settings row this build cannot use is a damaged store, not a usage error",
        arguments: ["U$D", "usd", "A1B", "ÄÖÜ"])
    func unusableCurrency(_ code: String) throws {
        let directory = try TemporaryDirectory()
        let path = try probeTemplate(in: directory)
        try sqlite(path, "PRAGMA ignore_check_constraints = ON; UPDATE settings SET currency = '\(code)'")
        let service = CartService(repository: try SQLiteCartRepository(path: path))
        #expect {
            try service.cart("alice")
        } throws: { error in
            error is StoredDataError && ErrorCategory(of: error) == .damagedStore
                && String(describing: error).contains("is not three capital letters")
        }
    }

    @Test(
        "a NULL in a column whose NOT NULL another client's schema edit dropped, read by add, names the value, not a missing product, cart or line",
        arguments: [
            ("products", "price", "sku = 'apple'", "the price of product 'apple'"),
            ("carts", "version", "id = 'alice'", "the version of cart 'alice'"),
            ("cart_lines", "quantity", "cart_id = 'alice' AND sku = 'apple'", "the quantity of 'apple' in cart 'alice'"),
        ])
    func nullReadByAdd(table: String, column: String, row: String, value: String) throws {
        let directory = try TemporaryDirectory()
        let path = try probeTemplate(in: directory)
        try sqlite(
            path,
            """
            PRAGMA writable_schema = ON;
            UPDATE sqlite_schema SET sql = replace(sql, '\(column) INTEGER NOT NULL', '\(column) INTEGER') WHERE name = '\(table)'
            """)
        try sqlite(path, "UPDATE \(table) SET \(column) = NULL WHERE \(row)")
        let service = CartService(repository: try SQLiteCartRepository(path: path))
        #expect {
            try service.add("apple", to: "alice")
        } throws: { error in
            String(describing: error) == "The store holds a value this version cannot use: \(value) is NULL, not an integer."
                && ErrorCategory(of: error) == .damagedStore
        }
    }

    @Test("a value read back out of range names its row: one line, category damagedStore")
    func namesTheRow() throws {
        let directory = try TemporaryDirectory()
        let path = try probeTemplate(in: directory)
        try sqlite(path, "PRAGMA ignore_check_constraints = ON; UPDATE cart_lines SET quantity = -1 WHERE sku = 'banana'")
        let service = CartService(repository: try SQLiteCartRepository(path: path))
        for operation in [{ _ = try service.cart("alice") }, { _ = try service.add("banana", to: "alice") }] {
            #expect {
                try operation()
            } throws: { error in
                String(describing: error)
                    == "The store holds a value this version cannot use: the quantity of 'banana' in cart 'alice' is -1, below 1."
                    && ErrorCategory(of: error) == .damagedStore
            }
        }
        // The cart's report, and so its checkout, name the line as a problem of the cart.
        let damaged = CartProblem.damagedLine(sku: "banana", quantity: -1)
        #expect(try service.cartReport("alice").problems == [damaged])
        #expect(throws: CartError.cannotCheckOut(cart: "alice", problems: [damaged])) { try service.checkout("alice") }
    }
}
