import CartCore
import CartInMemory
import CartSQLite
import Foundation
import RawSQLiteBaseline

/// Workloads 1 to 4: add-to-cart on SQLite and in memory, product import, checkout. Each round
/// starts from fresh files; project and raw alternate, and the medians are reported.
struct CartWorkloads {
    let options: BenchOptions
    let fixtures: BenchFixtures
    let report: BenchReport

    /// A fresh project database with the catalog imported.
    private func projectService(_ name: String) throws -> CartService {
        let path = try BenchFiles.fresh(options.workDirectory, name)
        let service = CartService(repository: try SQLiteCartRepository(path: path))
        try service.importProducts(fixtures.catalog)
        return service
    }

    /// A fresh raw database with the catalog imported.
    private func rawStore(_ name: String) throws -> RawBaseline {
        let raw = try RawBaseline(path: try BenchFiles.fresh(options.workDirectory, name))
        try raw.importProducts(
            RawProductBatch(
                skus: fixtures.skus, names: fixtures.names, prices: fixtures.prices, stock: Int64(BenchFixtures.stock)))
        return raw
    }

    /// Runs `project` and `raw` alternately for the configured rounds; returns their medians.
    private func alternate(project: () throws -> Double, raw: () throws -> Double) rethrows -> (Double, Double) {
        try Measurement.alternate(rounds: options.rounds, project: project, raw: raw)
    }

    /// 1: `CartService.add` on a SQLite file, one transaction per call.
    func addToCart() throws {
        let calls = fixtures.calls
        let (project, raw) = try alternate(
            project: {
                let service = try projectService("add-project.sqlite3")
                let skus = fixtures.skus
                let carts = fixtures.carts
                let seconds = try Measurement.seconds {
                    for call in calls { try service.add(skus[Int(call.sku)], to: carts[Int(call.cart)]) }
                }
                return Double(calls.count) / seconds
            },
            raw: {
                let raw = try rawStore("add-raw.sqlite3")
                let skus = fixtures.cSKUs
                let carts = fixtures.cCarts
                let seconds = try Measurement.seconds {
                    for call in calls {
                        let code = raw_add_to_cart(
                            raw.store, carts[Int(call.cart)], skus[Int(call.sku)], 1,
                            Measurement.wallClockMilliseconds())
                        try RawBaseline.check(code, "raw_add_to_cart")
                    }
                }
                return Double(calls.count) / seconds
            })
        report.throughput(
            "1 add-to-cart, \(calls.count) calls, \(options.carts) carts × \(options.skus) SKUs", unit: "tx/s",
            project: project, raw: raw, minimumRatio: 0.9)
    }

    /// 2: `CartService.importProducts`, all rows in one transaction.
    func importProducts() throws {
        let count = options.importRows
        let skus = (0..<count).map { "import-" + BenchFixtures.padded($0, 7) }
        let names = (0..<count).map { "Imported product \($0)" }
        let prices = (0..<count).map { Int64(100 + $0 % 10_000) }
        let products = (0..<count).map {
            Product(sku: skus[$0], name: names[$0], price: Money(minorUnits: prices[$0], currency: .usd), stock: 100)
        }
        let batch = RawProductBatch(skus: skus, names: names, prices: prices, stock: 100)
        let (project, raw) = try alternate(
            project: {
                let path = try BenchFiles.fresh(options.workDirectory, "import-project.sqlite3")
                let service = CartService(repository: try SQLiteCartRepository(path: path))
                let seconds = try Measurement.seconds { _ = try service.importProducts(products) }
                return Double(count) / seconds
            },
            raw: {
                let raw = try RawBaseline(path: try BenchFiles.fresh(options.workDirectory, "import-raw.sqlite3"))
                let seconds = try Measurement.seconds { try raw.importProducts(batch) }
                return Double(count) / seconds
            })
        report.throughput(
            "2 product import, \(count) rows, 1 transaction", unit: "rows/s", project: project, raw: raw,
            minimumRatio: 0.8)
    }

    /// 3: the same add-to-cart calls on `InMemoryCartRepository`.
    func inMemoryAddToCart() throws {
        let calls = fixtures.calls
        let skus = fixtures.skus
        let carts = fixtures.carts
        var rates: [Double] = []
        for _ in 0..<max(options.rounds, 5) {
            let service = CartService(repository: InMemoryCartRepository())
            try service.importProducts(fixtures.catalog)
            let seconds = try Measurement.seconds {
                for call in calls { try service.add(skus[Int(call.sku)], to: carts[Int(call.cart)]) }
            }
            rates.append(Double(calls.count) / seconds)
        }
        let rate = Measurement.median(rates)
        report.add(
            BenchRow(
                workload: "3 in-memory add-to-cart, same calls", unit: "ops/s", project: rate, raw: nil, ratio: nil,
                target: "≥ 1M ops/s", met: rate >= 1_000_000))
    }

    /// 4: `CartService.checkout` of carts holding 5 lines each.
    func checkout() throws {
        let count = options.checkouts
        let lines = 5
        func sku(_ cart: Int, _ line: Int) -> Int { (cart * lines + line) % options.skus }
        let carts = (0..<count).map { "checkout-" + BenchFixtures.padded($0, 6) }
        let (project, raw) = try alternate(
            project: {
                let service = try projectService("checkout-project.sqlite3")
                for cart in carts.indices {
                    for line in 0..<lines { try service.add(fixtures.skus[sku(cart, line)], to: carts[cart]) }
                }
                let seconds = try Measurement.seconds {
                    for cart in carts { _ = try service.checkout(cart) }
                }
                return Double(count) / seconds
            },
            raw: {
                let raw = try rawStore("checkout-raw.sqlite3")
                let cCarts = carts.map { strdup($0)! }
                defer { cCarts.forEach { free($0) } }
                for cart in carts.indices {
                    for line in 0..<lines {
                        try RawBaseline.check(
                            raw_add_to_cart(raw.store, cCarts[cart], fixtures.cSKUs[sku(cart, line)], 1, 0),
                            "raw_add_to_cart")
                    }
                }
                var number: Int64 = 0
                let seconds = try Measurement.seconds {
                    for cart in cCarts {
                        try RawBaseline.check(
                            raw_checkout(raw.store, cart, Measurement.wallClockMilliseconds(), &number), "raw_checkout")
                    }
                }
                return Double(count) / seconds
            })
        report.add(
            BenchRow(
                workload: "4 checkout, \(count) carts × \(lines) lines", unit: "orders/s", project: project, raw: raw,
                ratio: project / raw, target: "≥ 15k orders/s", met: project >= 15_000))
    }
}
