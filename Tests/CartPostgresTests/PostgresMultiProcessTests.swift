import CartPostgres
import CartTestSupport
import Foundation
import Synchronization
import Testing

/// Many `cart` processes on one PostgreSQL store at once, each its own client: row locks,
/// the order counter and the idempotency key's advisory lock must make them queue, never lose
/// an update, place an order twice or sell stock that is not there.
@Suite("cart binary on PostgreSQL: many processes at once")
struct PostgresMultiProcessTests {
    /// Runs `body(0)`, …, `body(count - 1)` on threads started together and returns what each
    /// returned, in index order.
    static func together<Value: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) throws -> Value) throws -> [Value] {
        let results = Mutex<[Int: Result<Value, any Error>]>([:])
        runOnThreads(count) { index in
            let outcome = Result { try body(index) }
            results.withLock { $0[index] = outcome }
        }
        return try results.withLock { all in try (0..<count).map { try all[$0, default: .failure(Missing())].get() } }
    }

    struct Missing: Error {}

    /// The decoded `--json` output of a run.
    static func object(_ run: ProgramRun) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))) as? [String: Any] ?? [:]
    }

    @Test("8 processes opening a new store at once migrate it once; 8 × 25 adds on one line end at exactly 200", TestServer.requires())
    func noLostUpdates() throws {
        let home = try TemporaryDirectory()
        let schema = try TestSchema()
        defer { try? schema.drop() }
        let cart = CartCommand(location: schema.url, home: home)
        let firstUses = try Self.together(8) { worker in
            try cart.run("products", "add", "p\(worker)", "--name", "P", "--price", "1")
        }
        // Each process that found no store says so, whichever of them created it.
        func saysCreated(_ run: ProgramRun) -> Bool {
            run.stderr.hasPrefix("Note: there was no store at 'postgresql://") && run.stderr.hasSuffix("'; a new one was created.\n")
                && run.stderr.split(separator: "\n").count == 1
        }
        for (worker, run) in firstUses.enumerated() {
            #expect(
                run.status == 0 && run.stdout == "Added p\(worker) (P) at $1.00, stock not tracked.\n"
                    && (run.stderr.isEmpty || saysCreated(run)),
                "\(run)")
        }
        #expect(firstUses.contains(where: saysCreated), "the first process found no store")
        // The three migrations (Migrations/PostgreSQL), each recorded once: none ran twice.
        #expect(try schema.execute("SELECT count(*) FROM schema_migrations")[0].int(0) == 3)

        try cart.ok("db", "init", "--max-line-quantity", "1000")
        try cart.ok("products", "add", "widget", "--name", "Widget", "--price", "1.00")
        let runs = try Self.together(8) { _ in try (0..<25).map { _ in try cart.run("add", "widget") } }.flatMap { $0 }
        #expect(runs.count == 200)
        for run in runs { #expect(run.status == 0 && run.stderr.isEmpty, "\(run)") }
        let shown = try cart.json("show")
        #expect((shown["items"] as? [[String: Any]])?.first?["quantity"] as? Int == 200)
        #expect(shown["version"] as? Int == 200)
        #expect(try cart.ok("db", "check").stdout == "ok\n")
    }

    @Test("2 processes racing checkout --key on one cart, 20 rounds: one order per round, numbers gapless", TestServer.requires())
    func racingCheckouts() throws {
        let home = try TemporaryDirectory()
        let schema = try TestSchema()
        defer { try? schema.drop() }
        let cart = CartCommand(location: schema.url, home: home)
        try cart.ok("products", "add", "widget", "--name", "Widget", "--price", "2.50", "--stock", "1000")
        let rounds = 20
        _ = try Self.together(rounds) { round in try cart.ok("--cart", "race-\(round)", "add", "widget", "2") }
        let runs = try Self.together(2 * rounds) { index in
            try cart.run("--cart", "race-\(index / 2)", "checkout", "--key", "key-\(index / 2)", "--json")
        }
        var numbers: Set<Int> = []
        for round in 0..<rounds {
            let pair = [runs[2 * round], runs[2 * round + 1]]
            #expect(pair.allSatisfy { $0.status == 0 }, "round \(round): \(pair)")
            let results = pair.map(Self.object)
            let placed = results.compactMap { ($0["order"] as? [String: Any])?["number"] as? Int }
            #expect(placed.count == 2 && placed[0] == placed[1], "round \(round): \(pair)")
            #expect(results.compactMap { $0["replayed"] as? Bool }.sorted { !$0 && $1 } == [false, true], "\(pair)")
            numbers.formUnion(placed)
        }
        #expect(numbers == Set(1...rounds))
        let orders = try cart.json("orders", "--limit", "100")["orders"] as? [[String: Any]] ?? []
        #expect(orders.count == rounds)
        #expect(Set(orders.compactMap { $0["cart"] as? String }).count == rounds)
        let stock = (try cart.json("products", "show", "widget")["stock"] as? Int)
        #expect(stock == 1000 - 2 * rounds)
    }

    @Test("2 carts racing for the last unit, 20 rounds: one order, one refusal, never oversold", TestServer.requires())
    func racingForTheLastUnit() throws {
        let home = try TemporaryDirectory()
        let schema = try TestSchema()
        defer { try? schema.drop() }
        let cart = CartCommand(location: schema.url, home: home)
        let rounds = 20
        _ = try Self.together(rounds) { round in
            try cart.ok("products", "add", "last-\(round)", "--name", "Last \(round)", "--price", "3.00", "--stock", "1")
            try cart.ok("--cart", "a-\(round)", "add", "last-\(round)")
            try cart.ok("--cart", "b-\(round)", "add", "last-\(round)")
        }
        let runs = try Self.together(2 * rounds) { index in
            try cart.run("--cart", "\(index % 2 == 0 ? "a" : "b")-\(index / 2)", "checkout")
        }
        for round in 0..<rounds {
            let pair = [runs[2 * round], runs[2 * round + 1]]
            #expect(pair.map(\.status).sorted() == [0, 1], "round \(round): \(pair)")
            let refusal = pair.first { $0.status == 1 }
            #expect(refusal?.errorLines.count == 1 && refusal?.stderr.contains("'last-\(round)'") == true, "round \(round): \(pair)")
        }
        let products = try cart.json("products")["products"] as? [[String: Any]] ?? []
        #expect(products.count == rounds && products.allSatisfy { $0["stock"] as? Int == 0 })
        let orders = try cart.json("orders", "--limit", "100")["orders"] as? [[String: Any]] ?? []
        #expect(orders.count == rounds)
        #expect(try cart.ok("db", "check").stdout == "ok\n")
    }

    @Test("30 checkouts killed with SIGKILL at random moments: each happened or not, a retry with its key places it once", TestServer.requires())
    func killedCheckouts() throws {
        let home = try TemporaryDirectory()
        let schema = try TestSchema()
        defer { try? schema.drop() }
        let cart = CartCommand(location: schema.url, home: home)
        try cart.ok("products", "add", "widget", "--name", "Widget", "--price", "2.50", "--stock", "1000")
        try cart.ok("products", "add", "gadget", "--name", "Gadget", "--price", "4.00", "--stock", "1000")
        let (threads, rounds) = (3, 10)
        let kills = try Self.together(threads) { thread in
            var random = SplitMix64(seed: UInt64(thread))
            var killed = 0
            for round in 0..<rounds {
                let id = "killed-\(thread)-\(round)"
                try cart.ok("--cart", id, "add", "widget", "2")
                try cart.ok("--cart", id, "add", "gadget")
                // Start-up, connecting and the checkout take tens of milliseconds: a kill
                // lands before, inside or after the checkout's transaction.
                if try cart.kill(afterMilliseconds: random.below(80), "--cart", id, "checkout", "--key", id) {
                    killed += 1
                }
                let retry = try cart.run("--cart", id, "checkout", "--key", id, "--json")
                #expect(retry.status == 0, "\(id): \(retry)")
                #expect((Self.object(retry)["order"] as? [String: Any])?["cart"] as? String == id, "\(retry)")
            }
            return killed
        }
        #expect(kills.reduce(0, +) > 0, "no process was still running when its kill came")
        let total = threads * rounds
        let orders = try cart.json("orders", "--limit", "100")["orders"] as? [[String: Any]] ?? []
        #expect(orders.count == total)
        #expect(Set(orders.compactMap { $0["number"] as? Int }) == Set(1...total))
        #expect(Set(orders.compactMap { $0["cart"] as? String }).count == total)
        let stock = try schema.execute("SELECT sku, stock FROM products ORDER BY sku").map { try [$0.string(0): $0.int64(1)] }
        #expect(stock == [["gadget": 1000 - Int64(total)], ["widget": 1000 - 2 * Int64(total)]])
        #expect(try schema.execute("SELECT count(*) FROM cart_lines")[0].int(0) == 0)
        #expect(try cart.ok("db", "check").stdout == "ok\n")
    }
}
