import CartCore
import CartTestSupport
import CartSQLite
import Foundation
import Migrations
import RawSQLiteBaseline

/// The order-history datasets of workload 5, one per size, built once and cached on disk
/// (`.build/bench-cache`): the project's through its own write path (`CartRepository.write`
/// units calling `insertOrder`), the raw baseline's through its C inserts, from the same
/// deterministic orders. A project dataset is keyed by the checksum of the migrations, so a
/// schema change rebuilds it.
struct HistoryDataset {
    /// Orders span one year from 2025-01-01 UTC, evenly spaced, in number order.
    static let startMilliseconds: Int64 = 1_735_689_600_000
    static let spanMilliseconds: Int64 = 365 * 86_400_000
    /// Orders per units of work while generating.
    static let chunk = 20_000
    /// Bump when the generated orders change.
    static let generatorVersion = "orders-v1"

    let orders: Int
    let fixtures: BenchFixtures
    let cacheDirectory: String

    /// About 100 orders per cart, so a cart's newest page of 20 is full at every size.
    var cartCount: Int { max(orders / 100, 1) }

    var projectPath: String {
        cacheDirectory + "/project-\(Self.schemaKey)-\(orders).sqlite3"
    }

    var rawPath: String { cacheDirectory + "/raw-\(Self.generatorVersion)-\(orders).sqlite3" }

    /// FNV-1a over the shipped migrations' SQL and the generator version, in hex.
    static let schemaKey: String = {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let text = EmbeddedMigrations.sqlite.map(\.sql).joined(separator: "\u{0}") + generatorVersion
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }()

    func cartID(_ index: Int) -> String { "cart-" + BenchFixtures.padded(index, 5) }

    /// The orders, one at a time, identical for both sides.
    struct Generator {
        private var random: SplitMix64
        private var number: Int64 = 0
        let orders: Int
        let carts: Int
        let skus: Int

        init(orders: Int, carts: Int, skus: Int) {
            self.orders = orders
            self.carts = carts
            self.skus = skus
            random = SplitMix64(seed: UInt64(orders))
        }

        /// The next order: number, cart, time and (SKU index, quantity) lines.
        mutating func next() -> (number: Int64, cart: Int, placedAt: Int64, lines: [(sku: Int, quantity: Int)]) {
            number += 1
            let cart = random.below(carts)
            let placedAt = HistoryDataset.startMilliseconds + (number - 1) * HistoryDataset.spanMilliseconds / Int64(orders)
            let lines = (0...random.below(5)).map { _ in (sku: random.below(skus), quantity: 1 + random.below(3)) }
            return (number, cart, placedAt, lines)
        }
    }

    /// Builds whichever of the two files is missing; returns how long that took.
    func prepare() throws -> Double {
        try FileManager.default.createDirectory(atPath: cacheDirectory, withIntermediateDirectories: true)
        var seconds = 0.0
        for (path, build) in [(projectPath, buildProject), (rawPath, buildRaw)]
        where !FileManager.default.fileExists(atPath: path) {
            let partial = path + ".partial"
            BenchFiles.remove(partial)
            // The database is closed (its WAL folded in) before it takes its final name.
            seconds += try Measurement.seconds { try build(partial) }
            try FileManager.default.moveItem(atPath: partial, toPath: path)
        }
        return seconds
    }

    private func buildProject(_ partial: String) throws {
        do {
            let repository = try SQLiteCartRepository(path: partial)
            var generator = Generator(orders: orders, carts: cartCount, skus: fixtures.skus.count)
            var written = 0
            while written < orders {
                let count = min(Self.chunk, orders - written)
                try repository.write { storage in
                    for _ in 0..<count { try storage.insertOrder(projectOrder(generator.next())) }
                }
                written += count
            }
        }
    }

    private func projectOrder(_ generated: (number: Int64, cart: Int, placedAt: Int64, lines: [(sku: Int, quantity: Int)]))
        -> Order
    {
        var items = 0
        var total: Int64 = 0
        let lines = generated.lines.map { line in
            let price = fixtures.prices[line.sku]
            items += line.quantity
            total += price * Int64(line.quantity)
            return OrderLine(
                sku: fixtures.skus[line.sku], name: fixtures.names[line.sku],
                unitPrice: Money(minorUnits: price, currency: .usd), quantity: line.quantity,
                lineTotal: Money(minorUnits: price * Int64(line.quantity), currency: .usd))
        }
        return Order(
            number: OrderNumber(rawValue: generated.number), cartID: cartID(generated.cart),
            placedAt: UTCCalendar.date(milliseconds: generated.placedAt), currency: .usd, totalItems: items,
            total: Money(minorUnits: total, currency: .usd), idempotencyKey: nil, lines: lines)
    }

    private func buildRaw(_ partial: String) throws {
        do {
            let raw = try RawBaseline(path: partial)
            var generator = Generator(orders: orders, carts: cartCount, skus: fixtures.skus.count)
            let carts = (0..<cartCount).map { strdup(cartID($0))! }
            defer { carts.forEach { free($0) } }
            var skus: [UnsafePointer<CChar>?] = []
            var names: [UnsafePointer<CChar>?] = []
            var prices: [Int64] = []
            var quantities: [Int64] = []
            for start in stride(from: 0, to: orders, by: Self.chunk) {
                try raw.beginBulk()
                for _ in start..<min(start + Self.chunk, orders) {
                    let order = generator.next()
                    skus = order.lines.map { UnsafePointer(fixtures.cSKUs[$0.sku]) }
                    names = order.lines.map { UnsafePointer(fixtures.cNames[$0.sku]) }
                    prices = order.lines.map { fixtures.prices[$0.sku] }
                    quantities = order.lines.map { Int64($0.quantity) }
                    try RawBaseline.check(
                        raw_insert_order(
                            raw.store, order.number, carts[order.cart], order.placedAt, Int32(order.lines.count), skus,
                            names, prices, quantities), "raw_insert_order")
                }
                try raw.commitBulk()
            }
        }
    }
}
