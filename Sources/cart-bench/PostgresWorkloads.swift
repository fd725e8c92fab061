import CartCore
import CartPostgres
import CartTestSupport
import Foundation
import RawPostgresBaseline
import Synchronization

/// Workloads P1 to P3 on a PostgreSQL server: add-to-cart and checkout with one client,
/// project against raw libpq C in alternating rounds, each round in fresh schemas; then 8
/// clients adding to carts of their own, project against pgbench running the same statements.
struct PostgresWorkloads {
    let options: BenchOptions
    let fixtures: BenchFixtures
    let report: BenchReport
    let server: PostgresBench

    /// A fresh, migrated store in `schema` holding the benchmark catalog, and its location.
    private func store(_ schema: String, maximumConnections: Int = 1) throws -> (CartService, String) {
        let url = try server.freshSchema(schema)
        let repository = try PostgresCartRepository(url: url, options: StoreOptions(maximumConnections: maximumConnections))
        let service = CartService(repository: repository)
        try service.importProducts(fixtures.catalog)
        return (service, url)
    }

    /// Runs `project` and `raw` alternately for the configured rounds; returns their medians.
    private func alternate(project: () throws -> Double, raw: () throws -> Double) rethrows -> (Double, Double) {
        try Measurement.alternate(rounds: options.rounds, project: project, raw: raw)
    }

    /// P1: `CartService.add` with one client, one transaction per call.
    func addToCart() throws {
        let calls = Array(fixtures.calls.prefix(options.postgresAddCalls))
        let (project, raw) = try alternate(
            project: {
                let (service, _) = try store("cart_bench_add_project")
                defer { try? server.drop("cart_bench_add_project") }
                let seconds = try Measurement.seconds {
                    for call in calls { try service.add(fixtures.skus[Int(call.sku)], to: fixtures.carts[Int(call.cart)]) }
                }
                return Double(calls.count) / seconds
            },
            raw: {
                _ = try store("cart_bench_add_raw")
                defer { try? server.drop("cart_bench_add_raw") }
                let raw = try RawPostgres(url: server.baselineURL(schema: "cart_bench_add_raw"))
                let seconds = try Measurement.seconds {
                    for call in calls {
                        let code = raw_pg_add_to_cart(
                            raw.handle, fixtures.cCarts[Int(call.cart)], fixtures.cSKUs[Int(call.sku)], 1,
                            Measurement.wallClockMilliseconds())
                        try RawBaseline.check(code, "raw_pg_add_to_cart")
                    }
                }
                return Double(calls.count) / seconds
            })
        report.throughput(
            "P1 PostgreSQL add-to-cart, \(calls.count) calls, 1 client", unit: "tx/s", project: project, raw: raw,
            minimumRatio: 0.9)
    }

    /// P2: `CartService.checkout` of carts holding 5 lines each, with one client.
    func checkout() throws {
        let count = options.postgresCheckouts
        let lines = 5
        let carts = (0..<count).map { "checkout-" + BenchFixtures.padded($0, 6) }
        /// A fresh store whose carts hold their lines, filled through the project (not timed).
        func filled(_ schema: String) throws -> (CartService, String) {
            let (service, url) = try store(schema)
            for cart in carts.indices {
                for line in 0..<lines { try service.add(fixtures.skus[(cart * lines + line) % fixtures.skus.count], to: carts[cart]) }
            }
            return (service, url)
        }
        let (project, raw) = try alternate(
            project: {
                let (service, _) = try filled("cart_bench_checkout_project")
                defer { try? server.drop("cart_bench_checkout_project") }
                let seconds = try Measurement.seconds {
                    for cart in carts { _ = try service.checkout(cart) }
                }
                return Double(count) / seconds
            },
            raw: {
                _ = try filled("cart_bench_checkout_raw")
                defer { try? server.drop("cart_bench_checkout_raw") }
                let raw = try RawPostgres(url: server.baselineURL(schema: "cart_bench_checkout_raw"))
                let cCarts = carts.map { strdup($0)! }
                defer { cCarts.forEach { free($0) } }
                var number: Int64 = 0
                let seconds = try Measurement.seconds {
                    for cart in cCarts {
                        try RawBaseline.check(
                            raw_pg_checkout(raw.handle, cart, Measurement.wallClockMilliseconds(), &number), "raw_pg_checkout")
                    }
                }
                return Double(count) / seconds
            })
        report.throughput(
            "P2 PostgreSQL checkout, \(count) carts × \(lines) lines, 1 client", unit: "orders/s", project: project,
            raw: raw, minimumRatio: 0.9)
    }

    /// P3: 8 clients, each adding one unit to carts of its own (100 carts × 10 SKUs, every
    /// line there already), for a fixed time: 8 threads sharing one repository of 8
    /// connections, against pgbench with 8 clients running the statements those adds send.
    func clients() throws {
        let clients = 8
        let seconds = options.postgresClientSeconds
        let schema = "cart_bench_clients"
        let url = try server.freshSchema(schema)
        defer { try? server.drop(schema) }
        let settings = StoreSettings(currency: .usd, maxLineQuantity: 1_000_000, maxLinesPerCart: 100)
        let repository = try PostgresCartRepository(
            url: url, options: StoreOptions(initialSettings: settings, maximumConnections: clients))
        let service = CartService(repository: repository)
        let skus = (0..<10).map { String(100 + $0) }
        try service.importProducts(
            skus.map { Product(sku: $0, name: "Product \($0)", price: Money(minorUnits: 100, currency: .usd), stock: 1_000_000_000) })
        for client in 0..<clients {
            for cart in 0..<100 {
                for sku in skus { try service.add(sku, to: String(client * 1000 + cart)) }
            }
        }
        let script = try Pgbench.addToCartScript(in: options.workDirectory)
        var projectRates: [Double] = []
        var pgbenchRates: [Double] = []
        // Each run starts from freshly vacuumed tables, as pgbench's own runs do unless told
        // otherwise, so that neither side inherits the other's dead rows; the order alternates
        // round by round, so that neither side always runs second.
        func runProject() throws {
            try server.vacuum(schema, tables: ["cart_lines", "carts"])
            projectRates.append(try Self.addConcurrently(service, clients: clients, seconds: seconds, skus: skus))
        }
        func runPgbench() throws {
            try server.vacuum(schema, tables: ["cart_lines", "carts"])
            pgbenchRates.append(
                try Pgbench.run(script: script, url: server.baselineURL(schema: schema), clients: clients, seconds: seconds))
        }
        for round in 0..<options.rounds {
            if round.isMultiple(of: 2) {
                try runProject()
                try runPgbench()
            } else {
                try runPgbench()
                try runProject()
            }
            FileHandle.standardError.write(
                Data(String(format: "  (P3 round %d: project %.0f, pgbench %.0f tx/s)\n", round + 1, projectRates[round], pgbenchRates[round]).utf8))
        }
        let project = Measurement.median(projectRates)
        let pgbench = Measurement.median(pgbenchRates)
        report.add(
            BenchRow(
                workload: "P3 PostgreSQL add-to-cart, \(clients) clients, own carts", unit: "tx/s", project: project,
                raw: pgbench, ratio: project / pgbench, target: "pgbench ratio ≥ 0.9", met: project / pgbench >= 0.9,
                note: "raw = pgbench -M prepared -c \(clients) -j \(clients), the same statements and session settings"))
    }

    /// Adds for `seconds` from `clients` threads at once, each to its own carts; the adds per second.
    static func addConcurrently(_ service: CartService, clients: Int, seconds: Int, skus: [String]) throws -> Double {
        let start = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        let done = Atomic<Int>(0)
        let failure = Mutex<String?>(nil)
        let deadline = Measurement.now() + UInt64(seconds) * 1_000_000_000
        for client in 0..<clients {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                var random = SplitMix64(seed: UInt64(client + 1))
                start.wait()
                while Measurement.now() < deadline {
                    let cart = String(client * 1000 + Int.random(in: 0..<100, using: &random))
                    do {
                        try service.add(skus[Int.random(in: 0..<skus.count, using: &random)], to: cart)
                    } catch {
                        failure.withLock { $0 = "\(error)" }
                        return
                    }
                    done.add(1, ordering: .relaxed)
                }
            }
        }
        let began = Measurement.now()
        for _ in 0..<clients { start.signal() }
        group.wait()
        if let failure = failure.withLock({ $0 }) { throw BenchError.child("8 clients: \(failure)") }
        return Double(done.load(ordering: .relaxed)) / (Double(Measurement.now() - began) / 1e9)
    }
}
