#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CartCore
import Testing

/// A backend that answers order listings and statistics its own way (SQL, an index) must
/// answer exactly as CartCore's one statement of their meaning: `OrderQuery.select(from:)` and
/// `OrderStatsRow.rows(for:groupedBy:currency:)` over all its orders. These cases hold it to
/// that on a varied history and many random queries.
enum PushDownContract {
    static let cases = ContractCase.suite(
        "Order queries answer as CartCore states them", key: "pushDown",
        [
            ("listings", "forEachOrder(matching:) lists what OrderQuery.select(from:) selects, for filters, sorts, cursors and limits", listings),
            ("paging", "following the cursor page by page lists every selected order once, through equal times and a clock that went backwards", paging),
            ("stats", "orderStats(matching:groupedBy:utcOffset:) answers as OrderStatsRow.rows over the orders the filters include", stats),
            ("duplicatedLines", "an order another client wrote with two lines of one SKU lists once under that SKU", duplicatedLines),
        ])

    /// Seeds of the history and of the queries; a failure names them.
    private static let historySeed: UInt64 = 0x00C0_FFEE
    private static let querySeed: UInt64 = 0x5EED_0001
    private static let queryCount = 300

    private static let carts = ["alice", "bob", "carol", "al"]
    private static let products: [(sku: String, price: Int64)] = [
        ("apple", 125), ("pear", 99), ("plum", 250), ("fig", 40), ("date", 1), ("melon", 100_000_000),
    ]

    /// Instants around the boundaries the filters and groupings meet: days, months, a year, the
    /// epoch (days before 1970 floor), whole and odd milliseconds.
    private static let instants: [Date] = [
        "1969-12-31T23:59:59.999Z", "1970-01-01T00:00:00Z", "2026-02-28T23:59:59.999Z", "2026-03-01T00:00:00Z",
        "2026-03-01T12:00:00.500Z", "2026-03-01T23:59:59.999Z", "2026-03-02T00:00:00Z", "2026-03-31T23:59:59Z",
        "2026-04-01T00:00:00.001Z", "2026-12-31T23:59:59.999Z", "2027-01-01T00:00:00Z", "2038-01-19T03:14:08.001Z",
    ].compactMap(UTCCalendar.parse)

    /// Two orders placed at the first and the last instant a store keeps, whose days at the
    /// widest offsets lie in the years -0001 and 10000.
    private static let edges: [Int: Date] = [
        100: "9999-12-31T23:59:59.999Z", 200: "0000-01-01T00:00:00Z",
    ].compactMapValues(UTCCalendar.parse)

    /// The order that holds one SKU on two lines, which a listing filtered by that SKU lists once.
    private static let duplicatedLineOrder = 150

    /// A store holding 240 orders of four carts: a third placed at the same instant as the
    /// order before, a third with the clock gone backwards, two at the edges of time, up to
    /// four lines each (five in `duplicatedLineOrder`).
    private static func history(_ backend: Backend) throws -> (store: Store, orders: [Order]) {
        let store = try Store(backend, seeded: false)
        var random = ContractRandom(seed: historySeed)
        var orders: [Order] = []
        // Whole milliseconds, as every store keeps them.
        var placedAt = UTCCalendar.milliseconds(instants[4])
        for number in 1...240 {
            switch random.below(3) {
            case 0: break
            case 1: placedAt = UTCCalendar.milliseconds(random.pick(instants))
            default: placedAt += Int64(random.below(90_000_000))
            }
            var lines: [OrderLine] = []
            var available = products
            for _ in 0...random.below(4) {
                let (sku, price) = available.remove(at: random.below(available.count))
                let quantity = 1 + random.below(5)
                lines.append(
                    OrderLine(
                        sku: sku, name: "Product \(sku)", unitPrice: usd(price), quantity: quantity,
                        lineTotal: usd(price * Int64(quantity))))
            }
            // The core never writes two lines of one SKU into an order; another client may.
            if number == duplicatedLineOrder { lines.append(lines[0]) }
            orders.append(
                Order(
                    number: OrderNumber(rawValue: Int64(number)), cartID: random.pick(carts),
                    placedAt: edges[number] ?? UTCCalendar.date(milliseconds: placedAt),
                    currency: .usd, totalItems: lines.reduce(0) { $0 + $1.quantity },
                    total: usd(lines.reduce(0) { $0 + $1.lineTotal.minorUnits }),
                    idempotencyKey: random.oneIn(4) ? "key-\(number)" : nil, lines: lines))
        }
        try store.repository.write { storage in
            for order in orders { try storage.insertOrder(order) }
        }
        let stored = try store.repository.read { storage in
            var stored: [Order] = []
            try storage.forEachOrder { stored.append($0) }
            return stored
        }
        #expect(stored == orders, "the history reads back as it was stored")
        return (store, stored)
    }

    /// An instant near one of `instants`: on it, a millisecond either side, or now and then a
    /// microsecond past it.
    private static func instant(_ random: inout ContractRandom) -> Date {
        let base = random.pick(instants)
        return base.addingTimeInterval(random.pick([0, 0, 0.001, -0.001, 0.000_001]))
    }

    /// A random query over the history: each filter set or not, to a value that matches or
    /// not; a cursor on an order, or on a number no order has; a limit, or none.
    private static func query(_ random: inout ContractRandom) -> OrderQuery {
        var query = OrderQuery(sort: random.oneIn(2) ? .newestFirst : .oldestFirst)
        if random.oneIn(2) { query.cartID = random.pick(carts + ["nobody"]) }
        if random.oneIn(3) { query.placedOnOrAfter = instant(&random) }
        if random.oneIn(3) { query.placedBefore = instant(&random) }
        if random.oneIn(3) { query.sku = random.pick(products.map(\.sku) + ["kiwi"]) }
        if random.oneIn(2) { query.after = OrderNumber(rawValue: Int64(random.pick([0, 241, 1 + random.below(240)]))) }
        if !random.oneIn(3) { query.limit = random.pick([-1, 0, 1, 2, 7, 20, 1000]) }
        return query
    }

    /// Every order `query` lists through the backend's own `forEachOrder(matching:)`.
    private static func listed(_ store: Store, _ query: OrderQuery) throws -> [Order] {
        try store.repository.read { storage in
            var listed: [Order] = []
            try storage.forEachOrder(matching: query) { listed.append($0) }
            return listed
        }
    }

    static func listings(_ backend: Backend) throws {
        let (store, orders) = try history(backend)
        var random = ContractRandom(seed: querySeed)
        for index in 0..<queryCount {
            let query = query(&random)
            let expected = query.select(from: orders).map(\.number)
            #expect(try listed(store, query).map(\.number) == expected, "query \(index) of seed \(querySeed): \(query)")
        }
    }

    static func paging(_ backend: Backend) throws {
        let (store, orders) = try history(backend)
        var random = ContractRandom(seed: querySeed)
        for index in 0..<queryCount / 10 {
            var query = query(&random)
            query.after = nil
            query.limit = nil
            let expected = query.select(from: orders).map(\.number)
            query.limit = random.pick([1, 3, 7, 20])
            var numbers: [OrderNumber] = []
            var pages = 0
            while pages <= orders.count {
                let page = try listed(store, query).map(\.number)
                numbers += page
                pages += 1
                guard page.count == query.limit, let last = page.last else { break }
                query.after = last
            }
            #expect(numbers == expected, "query \(index) of seed \(querySeed), \(pages) pages: \(query)")
        }
    }

    static func stats(_ backend: Backend) throws {
        let (store, orders) = try history(backend)
        var random = ContractRandom(seed: querySeed)
        for index in 0..<queryCount / 3 {
            let query = query(&random)
            // UTC, the extremes either way, and offsets of whole and part hours.
            let minutes = random.pick([0, 0, 1, -1, 60, -300, 330, 840, UTCOffset.maxMinutes, -UTCOffset.maxMinutes])
            let offset = try #require(UTCOffset(minutes: minutes))
            for grouping in OrderStatsGrouping.allCases {
                let expected = try OrderStatsRow.rows(
                    for: orders.filter(query.includes), groupedBy: grouping, utcOffset: offset, currency: .usd)
                let answered = try store.repository.read {
                    try $0.orderStats(matching: query, groupedBy: grouping, utcOffset: offset)
                }
                #expect(answered == expected, "query \(index) of seed \(querySeed), by \(grouping) at \(offset): \(query)")
            }
        }
    }

    static func duplicatedLines(_ backend: Backend) throws {
        let store = try Store(backend, seeded: false)
        let line = OrderLine(sku: "apple", name: "Apple", unitPrice: usd(125), quantity: 2, lineTotal: usd(250))
        let order = Order(
            number: OrderNumber(rawValue: 1), cartID: "alice", placedAt: UTCCalendar.date(milliseconds: 0), currency: .usd,
            totalItems: 4, total: usd(500), idempotencyKey: nil, lines: [line, line])
        try store.repository.write { storage in try storage.insertOrder(order) }
        for sort in [OrderQuery.Sort.newestFirst, .oldestFirst] {
            #expect(try listed(store, OrderQuery(sku: "apple", sort: sort, limit: 10)).map(\.number) == [order.number])
        }
    }
}
