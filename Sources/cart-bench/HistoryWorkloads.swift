import CartCore
import CartTestSupport
import CartSQLite
import Foundation
import RawSQLiteBaseline

/// Workload 5: newest-page latencies at every dataset size, stats by day and the CSV export on
/// the largest.
struct HistoryWorkloads {
    let options: BenchOptions
    let fixtures: BenchFixtures
    let report: BenchReport

    func run() throws {
        var largest: HistoryDataset?
        for size in options.historySizes {
            let dataset = HistoryDataset(orders: size, fixtures: fixtures, cacheDirectory: options.cacheDirectory)
            let built = try dataset.prepare()
            if built > 0 {
                FileHandle.standardError.write(
                    Data("  (generated the \(size)-order datasets in \(String(format: "%.1f", built)) s)\n".utf8))
            }
            try pages(dataset)
            largest = dataset
        }
        if let largest {
            try stats(largest)
            try ExportWorkload(options: options, report: report).run(largest)
        }
    }

    /// p50 and p99 of the newest page of 20, for one cart and for a date range (a day), at one size.
    private func pages(_ dataset: HistoryDataset) throws {
        let service = CartService(repository: try SQLiteCartRepository(path: dataset.projectPath))
        let raw = try RawBaseline(path: dataset.rawPath)
        let page = UnsafeMutablePointer<raw_order>.allocate(capacity: 32)
        defer { page.deallocate() }
        let carts = (0..<dataset.cartCount).map(dataset.cartID)
        let cCarts = carts.map { strdup($0)! }
        defer { cCarts.forEach { free($0) } }
        let limit = 20
        // A day, or longer where a day holds fewer than two pages (the smallest quick dataset).
        let width = max(86_400_000, HistoryDataset.spanMilliseconds * 40 / Int64(dataset.orders))
        let ranges = Int((HistoryDataset.spanMilliseconds - width) / 86_400_000)

        var random = SplitMix64(seed: 7)
        let cartPicks = (0..<options.historyQueries).map { _ in random.below(carts.count) }
        let dayPicks = (0..<options.historyQueries).map { _ in
            HistoryDataset.startMilliseconds + Int64(random.below(ranges)) * 86_400_000
        }
        var samples: [String: [Double]] = [:]
        func time(_ key: String, _ body: () throws -> Int) throws {
            let start = Measurement.now()
            let count = try body()
            samples[key, default: []].append(Double(Measurement.now() - start) / 1e6)
            guard count == limit else { throw BenchError.child("\(key) returned \(count) orders, not \(limit)") }
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
                try time(prefix + "raw-cart") { Int(raw_history_cart(raw.store, cCarts[pick], Int32(limit), page)) }
            }
            for day in dayPicks {
                let since = UTCCalendar.date(milliseconds: day)
                let before = UTCCalendar.date(milliseconds: day + width)
                try time(prefix + "project-range") {
                    try service.orders(matching: OrderQuery(placedOnOrAfter: since, placedBefore: before, limit: limit))
                        .orders.count
                }
            }
            for day in dayPicks {
                try time(prefix + "raw-range") {
                    Int(raw_history_range(raw.store, day, day + width, Int32(limit), page))
                }
            }
        }
        report.pageLatencies("5", orders: dataset.orders, samples: samples)
    }

    /// Orders, units and revenue per day over every order.
    private func stats(_ dataset: HistoryDataset) throws {
        let service = CartService(repository: try SQLiteCartRepository(path: dataset.projectPath))
        let raw = try RawBaseline(path: dataset.rawPath)
        var projectTimes: [Double] = []
        var rawTimes: [Double] = []
        let rounds = options.quick ? options.rounds : 3
        var projectDays = 0
        var rawDays: Int32 = 0
        for _ in 0..<rounds {
            projectTimes.append(try Measurement.seconds { projectDays = try service.orderStats(groupedBy: .day).count })
            var checksum: Int64 = 0
            rawTimes.append(Measurement.seconds { rawDays = raw_stats_by_day(raw.store, &checksum) })
        }
        guard projectDays == Int(rawDays) else {
            throw BenchError.child("stats by day: project has \(projectDays) days, raw \(rawDays)")
        }
        let project = Measurement.median(projectTimes)
        let rawTime = Measurement.median(rawTimes)
        report.add(
            BenchRow(
                workload: "5 stats by day, \(dataset.orders) orders", unit: "s", project: project, raw: rawTime,
                ratio: rawTime / project, target: "≤ 1 s", met: project <= 1))
    }
}
