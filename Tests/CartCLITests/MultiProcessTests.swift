import Foundation
import Testing

/// Many `cart` processes on one database file at the same moment, and another client holding
/// the write lock: SQLite's locking, `BEGIN IMMEDIATE` and the busy timeout must make them
/// queue, never lose an update, place an order twice or sell stock that is not there.
///
/// `scripts/reliability.sh` runs longer versions of the same races.
@Suite("cart binary: many processes at once")
struct MultiProcessTests {
    /// The decoded `--json` output of a successful run.
    func json(_ result: CartSandbox.Result) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        return object as? [String: Any] ?? [:]
    }

    @Test("8 processes × 25 adds on one line end at exactly 200, none failing or reporting a lock")
    func noLostUpdates() throws {
        let sandbox = try CartSandbox()
        try sandbox.ok("db", "init", "--max-line-quantity", "1000")
        try sandbox.ok("products", "add", "widget", "--name", "Widget", "--price", "1.00")
        let runs = try CartSandbox.together(8) { _ in
            try (0..<25).map { _ in try sandbox.run("add", "widget") }
        }.flatMap { $0 }
        #expect(runs.count == 200)
        for run in runs {
            #expect(run.status == 0, "\(run)")
            #expect(!run.stderr.contains("locked"), "\(run)")
        }
        let cart = try json(try sandbox.ok("show", "--json"))
        let items = cart["items"] as? [[String: Any]]
        #expect(items?.first?["quantity"] as? Int == 200)
        #expect(cart["version"] as? Int == 200)
    }

    @Test("8 processes opening a database that does not exist yet, 5 rounds: all create and migrate it once, and exactly one says it created it")
    func concurrentFirstUse() throws {
        let sandbox = try CartSandbox()
        for round in 0..<5 {
            let store = sandbox.path("new-\(round).sqlite3")
            let runs = try CartSandbox.together(8) { worker in
                try sandbox.run("--db", store, "products", "add", "p\(worker)", "--name", "P", "--price", "1")
            }
            // Every process may find no store; only the one whose migrations made it says so.
            let note = "Note: there was no store at '\(store)'; a new one was created.\n"
            for (worker, run) in runs.enumerated() {
                #expect(
                    run.status == 0 && run.stdout == "Added p\(worker) (P) at $1.00, stock not tracked.\n"
                        && (run.stderr.isEmpty || run.stderr == note),
                    "round \(round): \(run)")
            }
            #expect(runs.filter { $0.stderr == note }.count == 1, "round \(round): \(runs)")
            #expect(try sandbox.sqlite3("SELECT count(*) FROM schema_migrations", on: store) == "4\n")
            #expect(try sandbox.ok("--db", store, "db", "check").stdout == "ok\n")
        }
    }

    @Test("6 processes running db init on one new store, 10 rounds: all exit 0 and exactly one says it created it")
    func concurrentInit() throws {
        let sandbox = try CartSandbox()
        for round in 0..<10 {
            let store = sandbox.path("init-\(round).sqlite3")
            let runs = try CartSandbox.together(6) { worker in
                try sandbox.run("--db", store, "--json", "db", "init", "--max-lines", String(worker + 2))
            }
            #expect(runs.allSatisfy { $0.status == 0 && $0.stderr.isEmpty }, "round \(round): \(runs)")
            #expect(runs.filter { $0.stdout.contains(#""created":true"#) }.count == 1, "round \(round): \(runs)")
        }
    }

    @Test("2 processes racing checkout --key on one cart, 50 rounds: exactly one order per round")
    func racingCheckouts() throws {
        let sandbox = try CartSandbox()
        try sandbox.ok("products", "add", "widget", "--name", "Widget", "--price", "2.50")
        let rounds = 50
        _ = try CartSandbox.together(10) { worker in
            for round in stride(from: worker, to: rounds, by: 10) {
                try sandbox.ok("--cart", "race-\(round)", "add", "widget", "2")
            }
        }
        // Five rounds at a time, each a pair of processes on its own cart.
        var outcomes: [[CartSandbox.Result]] = []
        for batch in stride(from: 0, to: rounds, by: 5) {
            let runs = try CartSandbox.together(10) { index in
                let round = batch + index / 2
                return try sandbox.run("--cart", "race-\(round)", "checkout", "--key", "key-\(round)", "--json")
            }
            outcomes += stride(from: 0, to: runs.count, by: 2).map { [runs[$0], runs[$0 + 1]] }
        }
        var numbers: Set<Int> = []
        for (round, pair) in outcomes.enumerated() {
            #expect(pair.allSatisfy { $0.status == 0 }, "round \(round): \(pair)")
            let results = try pair.map(json)
            let placed = results.compactMap { ($0["order"] as? [String: Any])?["number"] as? Int }
            #expect(placed.count == 2 && placed[0] == placed[1], "round \(round): \(pair)")
            #expect(results.map { $0["replayed"] as? Bool }.sorted { $1 == true } == [false, true], "\(pair)")
            numbers.formUnion(placed)
            let cart = try json(try sandbox.ok("--cart", "race-\(round)", "show", "--json"))
            #expect((cart["items"] as? [Any])?.isEmpty == true)
        }
        #expect(numbers == Set(1...rounds))
        let orders = try json(try sandbox.ok("orders", "--limit", "1000", "--json"))["orders"] as? [[String: Any]]
        #expect(orders?.count == rounds)
        #expect(Set(orders?.compactMap { $0["cart"] as? String } ?? []).count == rounds)
    }

    @Test("2 carts racing for the last unit, 50 rounds: one order, one refusal, never oversold")
    func racingForTheLastUnit() throws {
        let sandbox = try CartSandbox()
        let rounds = 50
        let csv = "sku,name,price,stock\n" + (0..<rounds).map { "last-\($0),Last \($0),3.00,1\n" }.joined()
        try sandbox.ok("products", "import", try sandbox.write("last.csv", Array(csv.utf8)))
        _ = try CartSandbox.together(10) { worker in
            for round in stride(from: worker, to: rounds, by: 10) {
                try sandbox.ok("--cart", "a-\(round)", "add", "last-\(round)")
                try sandbox.ok("--cart", "b-\(round)", "add", "last-\(round)")
            }
        }
        for batch in stride(from: 0, to: rounds, by: 5) {
            let runs = try CartSandbox.together(10) { index in
                let round = batch + index / 2
                return try sandbox.run("--cart", index % 2 == 0 ? "a-\(round)" : "b-\(round)", "checkout")
            }
            for offset in 0..<5 {
                let round = batch + offset
                let pair = [runs[2 * offset], runs[2 * offset + 1]]
                #expect(pair.map(\.status).sorted() == [0, 1], "round \(round): \(pair)")
                let refusal = pair.first { $0.status == 1 }
                #expect(
                    refusal?.stderr.hasSuffix("cannot be checked out: 'last-\(round)': 1 in the cart, 0 in stock.\n") == true,
                    "round \(round): \(pair)")
            }
        }
        let products = try json(try sandbox.ok("products", "--json"))["products"] as? [[String: Any]] ?? []
        #expect(products.count == rounds && products.allSatisfy { $0["stock"] as? Int == 0 })
        let rows = try sandbox.ok("orders", "--csv").stdout.split(separator: "\n").dropFirst()
        let sold = rows.map { $0.split(separator: ",")[3] }
        #expect(sold.count == rounds && Set(sold).count == rounds, "\(sold)")
    }

    @Test("4 processes adding stock, 4 taking it away and 4 checking out at once: every unit is counted")
    func stockChangesKeepCheckouts() throws {
        let sandbox = try CartSandbox()
        try sandbox.ok("products", "add", "tea", "--name", "Tea", "--price", "2.00", "--stock", "100")
        for cart in 0..<4 { try sandbox.ok("--cart", "c\(cart)", "add", "tea", "5") }
        let runs = try CartSandbox.together(12) { worker in
            switch worker % 3 {
            case 0: try (0..<5).map { _ in try sandbox.run("products", "update", "tea", "--add-stock", "3") }
            case 1: try (0..<5).map { _ in try sandbox.run("products", "update", "tea", "--remove-stock", "2") }
            default: [try sandbox.run("--cart", "c\(worker / 3)", "checkout")]
            }
        }.flatMap { $0 }
        #expect(runs.count == 44 && runs.allSatisfy { $0.status == 0 }, "\(runs.filter { $0.status != 0 })")
        let tea = try json(try sandbox.ok("products", "show", "tea", "--json"))
        // 100 + 20 × 3 − 20 × 2 − 4 × 5
        #expect(tea["stock"] as? Int == 100)
    }

    @Test("another client holding the write lock for 2 s: cart add waits and succeeds")
    func waitsForTheLock() throws {
        let sandbox = try CartSandbox()
        try sandbox.ok("demo")
        let holder = try LockHolder(path: sandbox.database)
        let started = Date()
        let releaser = Thread {
            Thread.sleep(forTimeInterval: 2)
            holder.release()
        }
        releaser.start()
        let added = try sandbox.run("add", "apple")
        let waited = Date().timeIntervalSince(started)
        #expect(added.status == 0 && added.stderr.isEmpty, "\(added)")
        #expect(waited >= 1.9, "cart add returned after \(waited) s, before the lock was released")
        #expect(try sandbox.ok("show").stdout.contains("apple  Apple    1"))
    }

    @Test("held past --busy-timeout: cart add exits 75 with one clear line and nothing changes")
    func givesUpAfterTheBusyTimeout() throws {
        let sandbox = try CartSandbox()
        try sandbox.ok("demo")
        try sandbox.ok("add", "apple")
        let before = try sandbox.dump()
        let holder = try LockHolder(path: sandbox.database)
        let started = Date()
        let result = try sandbox.run("--busy-timeout", "500", "add", "apple", "3")
        let waited = Date().timeIntervalSince(started)
        let fromEnvironment = try sandbox.run(["checkout"], environment: ["CART_BUSY_TIMEOUT": "200"])
        holder.release()
        #expect(result.status == 75, "\(result)")
        #expect(
            result.stderr
                == "Error: The store '\(sandbox.database)' stayed locked by another process past the busy timeout; "
                + "try again, or wait longer with --busy-timeout.\n")
        #expect(waited >= 0.45, "gave up after \(waited) s")
        #expect(fromEnvironment.status == 75 && fromEnvironment.errorLines.count == 1, "\(fromEnvironment)")
        #expect(try sandbox.dump() == before)
    }
}
