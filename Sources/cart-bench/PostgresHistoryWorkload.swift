import CartCore
import CartPostgres
import CartTestSupport
import Foundation
import Migrations
import RawPostgresBaseline

/// Workload P4: newest-page latencies at every dataset size on PostgreSQL, project against
/// raw libpq C reading the same page through the same statement in the same read unit.
///
/// Each dataset is a schema of its own, migrated by the repository and filled in a few
/// statements on the server (orders spread over one year from 2025-01-01 UTC and over
/// `orders / 100` carts, 1 to 3 lines each), and kept for later runs: its name carries the
/// size and a checksum of the migrations, so a schema change builds it again.
struct PostgresHistoryWorkload {
    let options: BenchOptions
    let report: BenchReport
    let server: PostgresBench

    /// FNV-1a over the PostgreSQL migrations' SQL and the dataset's shape, in hex.
    static let schemaKey: String = {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in (EmbeddedMigrations.postgresql.map(\.sql).joined(separator: "\u{0}") + "orders-v1").utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return String(String(hash, radix: 16).prefix(8))
    }()

    func run() throws {
        for size in options.postgresHistorySizes {
            let (url, built) = try dataset(orders: size)
            if built > 0 {
                FileHandle.standardError.write(
                    Data("  (generated the \(size)-order PostgreSQL dataset in \(String(format: "%.1f", built)) s)\n".utf8))
            }
            try pages(url: url, orders: size)
        }
    }

    /// The location of the dataset of `orders` orders, built unless it exists; and how long
    /// building it took (0 when it existed).
    private func dataset(orders: Int) throws -> (String, Double) {
        let schema = "cart_bench_history_\(orders)_\(Self.schemaKey)"
        let url = server.url(schema: schema)
        if try server.exists(schema) { return (url, 0) }
        let seconds = try Measurement.seconds {
            _ = try server.freshSchema(schema)
            do {
                _ = try PostgresCartRepository(url: url)
                let connection = try PostgresConnection(url)
                try connection.executeScript(Self.fill(orders: orders, carts: max(orders / 100, 1)))
                // Each on its own: VACUUM refuses to run inside a transaction, and a script is one.
                try connection.executeScript("VACUUM ANALYZE orders")
                try connection.executeScript("VACUUM ANALYZE order_lines")
            } catch {
                try? server.drop(schema)
                throw error
            }
        }
        return (url, seconds)
    }

    /// The SQL that fills a migrated store with `orders` orders: deterministic, so that every
    /// run measures the same data.
    static func fill(orders: Int, carts: Int) -> String {
        let start: Int64 = 1_735_689_600_000
        let span: Int64 = 365 * 86_400_000
        return """
            WITH lines AS (
                SELECT n, k, (n * 31 + k * 17) % 500 AS product, 1 + (n + k) % 3 AS quantity
                FROM generate_series(1::bigint, \(orders)) AS n, generate_series(1, 3) AS k
                WHERE k <= 1 + (n * 7) % 3
            ), placed AS (
                INSERT INTO orders (number, cart_id, placed_at, currency, total_items, total, idempotency_key)
                SELECT n, 'cart-' || lpad(((n * 2654435761) % \(carts))::text, 5, '0'), \(start) + (n - 1) * \(span) / \(orders),
                    'USD', sum(quantity), sum((100 + product) * quantity), NULL
                FROM lines GROUP BY n
                RETURNING number, placed_at
            )
            INSERT INTO order_lines (order_number, position, sku, name, unit_price, quantity, line_total, placed_at)
            SELECT l.n, l.k, 'sku-' || lpad(l.product::text, 4, '0'), 'Product ' || l.product, 100 + l.product, l.quantity,
                (100 + l.product) * l.quantity, placed.placed_at
            FROM lines AS l JOIN placed ON placed.number = l.n;
            UPDATE order_numbers SET last_number = \(orders);
            """
    }

    /// p50 and p99 of the newest page of 20, for one cart and for a date range (a day, or
    /// longer where a day holds fewer than two pages).
    private func pages(url: String, orders: Int) throws {
        let service = CartService(repository: try PostgresCartRepository(url: url, options: StoreOptions(maximumConnections: 1)))
        let raw = try RawPostgres(url: url)
        let limit = 20
        let carts = (0..<max(orders / 100, 1)).map { "cart-" + BenchFixtures.padded($0, 5) }
        let start: Int64 = 1_735_689_600_000
        let span: Int64 = 365 * 86_400_000
        let width = max(86_400_000, span * 40 / Int64(orders))
        let ranges = Int((span - width) / 86_400_000)
        // The statement a page reads through the service, which asks for one order more to
        // know whether a next page exists.
        let cartPage = PostgresBenchmarkSQL.orderPage(OrderQuery(cartID: "x", limit: limit + 1))
        let rangePage = PostgresBenchmarkSQL.orderPage(
            OrderQuery(placedOnOrAfter: Date(timeIntervalSince1970: 0), placedBefore: Date(timeIntervalSince1970: 1), limit: limit + 1))
        try raw.prepare(cartPage.sql, slot: 10)
        try raw.prepare(rangePage.sql, slot: 11)

        var random = SplitMix64(seed: 7)
        let cartPicks = (0..<options.historyQueries).map { _ in random.below(carts.count) }
        let dayPicks = (0..<options.historyQueries).map { _ in start + Int64(random.below(max(ranges, 1))) * 86_400_000 }
        var samples: [String: [Double]] = [:]
        func time(_ key: String, _ body: () throws -> Int) throws {
            let began = Measurement.now()
            let count = try body()
            samples[key, default: []].append(Double(Measurement.now() - began) / 1e6)
            guard count >= limit else { throw BenchError.child("\(key) returned \(count) orders, not \(limit)") }
        }
        /// Runs the raw read unit of `slot` with `values`; the orders it returned.
        func rawPage(_ slot: Int32, _ values: [String]) throws -> Int {
            let texts = values.map { strdup($0) }
            defer { texts.forEach { free($0) } }
            let pointers = texts.map { UnsafePointer<CChar>($0) }
            let count = raw_pg_read_unit(raw.handle, slot, Int32(values.count), pointers)
            guard count >= 0 else { throw BenchError.raw("raw_pg_read_unit", code: count) }
            return Int(count)
        }
        for round in 0...options.rounds {
            // Round 0 warms the caches and is not recorded.
            let prefix = round == 0 ? "warm-" : ""
            for pick in cartPicks {
                try time(prefix + "project-cart") {
                    try service.orders(matching: OrderQuery(cartID: carts[pick], limit: limit)).orders.count
                }
            }
            for pick in cartPicks {
                try time(prefix + "raw-cart") { try rawPage(10, [carts[pick], String(limit + 1)]) }
            }
            for day in dayPicks {
                let query = OrderQuery(
                    placedOnOrAfter: UTCCalendar.date(milliseconds: day), placedBefore: UTCCalendar.date(milliseconds: day + width),
                    limit: limit)
                try time(prefix + "project-range") { try service.orders(matching: query).orders.count }
            }
            for day in dayPicks {
                try time(prefix + "raw-range") { try rawPage(11, [String(day), String(day + width), String(limit + 1)]) }
            }
        }
        report.pageLatencies("P4 PostgreSQL", orders: orders, samples: samples)
    }
}
