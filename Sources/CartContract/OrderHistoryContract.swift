import CartCore
import Testing
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Listing orders, paging through them and their statistics.
enum OrderHistoryContract {
    static let cases = ContractCase.suite(
        "Order history, paging and statistics", key: "orders",
        [
            ("sortOrder", "orders come newest first by default and oldest first on request", sortOrder),
            ("filters", "orders filter by cart, placed-at window and SKU", filters),
            ("limitAndCursor", "a limit cuts the page and gives the cursor of the next one", limitAndCursor),
            ("pagination", "paging 250 orders by 20 returns each exactly once, in both directions", pagination),
            ("orderByNumber", "one order is fetched by number with its lines; unknown numbers fail", orderByNumber),
            ("streaming", "forEachOrder streams every matching order in order, honouring the limit", streaming),
            ("streamingStops", "an error thrown while streaming stops the stream and comes back", streamingStops),
            ("millisecondInstants", "stored instants keep their millisecond", millisecondInstants),
            ("subMillisecondClock", "with a clock finer than a millisecond, what a call returns is what it stored, and a bound between two milliseconds compares as the instant it is", subMillisecondClock),
            ("statsTotal", "stats total orders, units and revenue over a period", statsTotal),
            ("statsByDayAndMonth", "stats group by UTC day and by month, oldest first", statsByDayAndMonth),
            ("statsByProduct", "stats by product put the highest revenue first", statsByProduct),
            ("statsTiesAndEpoch", "stats by product list equal revenues by SKU; days before 1970 are floored", statsTiesAndEpoch),
            ("statsAtOffset", "stats by day and month begin each day at midnight at the UTC offset given", statsAtOffset),
            ("ordersOfManyLines", "orders of 1 to 40 lines read back with every line, in order", ordersOfManyLines),
            ("statsOverflow", "stats whose revenue does not fit in 64 bits fail with amountOverflow", statsOverflow),
            ("incompleteOrder", "an order stored without lines, or with lines of other totals, is refused on every read that shows it", incompleteOrder),
        ])

    static func incompleteOrder(_ backend: Backend) throws {
        let store = try Store(backend)
        let apple = usd(129)
        let line = OrderLine(sku: "apple", name: "Apple", unitPrice: apple, quantity: 2, lineTotal: usd(258))
        try store.repository.write { storage in
            for (number, lines, total) in [(Int64(1), [line], usd(258)), (2, [], usd(258)), (3, [line], usd(259))] {
                try storage.insertOrder(
                    Order(
                        number: OrderNumber(rawValue: number), cartID: "alice", placedAt: store.clock.now, currency: .usd,
                        totalItems: 2, total: total, idempotencyKey: nil, lines: lines))
            }
        }
        #expect(try store.service.order(1).lines == [line])
        #expect(throws: StoredDataError("order 2 has no lines")) { try store.service.order(2) }
        #expect(throws: StoredDataError("order 3: its totals (2 items, 259 minor units) are not its lines' (2 items, 258 minor units)")) {
            try store.service.order(3)
        }
        #expect(throws: StoredDataError.self) { try store.service.orders(matching: OrderQuery()) }
        var streamed: [OrderNumber] = []
        #expect(throws: StoredDataError.self) {
            try store.service.forEachOrder(matching: OrderQuery(sort: .oldestFirst)) { streamed.append($0.number) }
        }
        #expect(streamed == [1])
        // A page that ends before a damaged order is served: the order read to learn that more
        // follow is checked by the page that shows it.
        let page = try store.service.orders(matching: OrderQuery(sort: .oldestFirst, limit: 1))
        #expect(page.orders.map(\.number) == [1] && page.next == 1)
        streamed = []
        #expect(try store.service.forEachOrder(matching: OrderQuery(sort: .oldestFirst, limit: 1)) { streamed.append($0.number) })
        #expect(streamed == [1])
        #expect(throws: StoredDataError.self) { try store.service.orders(matching: OrderQuery(sort: .oldestFirst, after: 1, limit: 1)) }
    }

    /// Four orders one second apart from `TestClock.start`:
    /// 1 alice apple, 2 bob pear, 3 alice plum+apple, 4 bob apple.
    private static func fourOrders(_ backend: Backend) throws -> Store {
        let store = try Store(backend)
        try store.placeOrder("alice", [("apple", 1)])
        try store.placeOrder("bob", [("pear", 1)])
        try store.placeOrder("alice", [("plum", 1), ("apple", 2)])
        try store.placeOrder("bob", [("apple", 1)])
        return store
    }

    private static func numbers(_ store: Store, _ query: OrderQuery) throws -> [Int64] {
        try store.service.orders(matching: query).orders.map(\.number.rawValue)
    }

    private static func at(_ seconds: Int) -> Date { TestClock.start.addingTimeInterval(TimeInterval(seconds)) }

    /// Every order matching `query`, following the cursor page by page.
    private static func allPages(_ store: Store, _ query: OrderQuery) throws -> (numbers: [Int64], pages: Int) {
        var query = query
        var numbers: [Int64] = []
        var pages = 0
        while true {
            let page = try store.service.orders(matching: query)
            pages += 1
            #expect(page.orders.count <= query.limit ?? 20)
            numbers += page.orders.map(\.number.rawValue)
            guard let next = page.next else { return (numbers, pages) }
            query.after = next
        }
    }

    static func sortOrder(_ backend: Backend) throws {
        let store = try fourOrders(backend)
        #expect(try numbers(store, OrderQuery()) == [4, 3, 2, 1])
        #expect(try numbers(store, OrderQuery(sort: .oldestFirst)) == [1, 2, 3, 4])
    }

    static func filters(_ backend: Backend) throws {
        let store = try fourOrders(backend)
        #expect(try numbers(store, OrderQuery(cartID: "alice")) == [3, 1])
        #expect(try numbers(store, OrderQuery(cartID: "nobody")) == [])
        #expect(try numbers(store, OrderQuery(placedOnOrAfter: at(2))) == [4, 3, 2], "the start is inclusive")
        #expect(try numbers(store, OrderQuery(placedBefore: at(3))) == [2, 1], "the end is exclusive")
        #expect(try numbers(store, OrderQuery(placedOnOrAfter: at(2), placedBefore: at(4))) == [3, 2])
        #expect(try numbers(store, OrderQuery(sku: "apple")) == [4, 3, 1])
        #expect(try numbers(store, OrderQuery(sku: "kiwi")) == [])
        #expect(try numbers(store, OrderQuery(cartID: "alice", sku: "apple", sort: .oldestFirst)) == [1, 3])
    }

    static func limitAndCursor(_ backend: Backend) throws {
        let store = try fourOrders(backend)
        let first = try store.service.orders(matching: OrderQuery(limit: 3))
        #expect(first.orders.map(\.number) == [4, 3, 2])
        #expect(first.next == 2)
        let last = try store.service.orders(matching: OrderQuery(after: 2, limit: 3))
        #expect(last.orders.map(\.number) == [1])
        #expect(last.next == nil)
        #expect(try store.service.orders(matching: OrderQuery(limit: 4)).next == nil, "an exact fit has no next page")
        // A cursor naming no order is refused, not answered with an empty page like the last.
        #expect(throws: CartError.orderNotFound(5)) { try store.service.orders(matching: OrderQuery(after: 5)) }
        #expect(throws: CartError.orderNotFound(0)) { try store.service.orders(matching: OrderQuery(after: 0)) }
        #expect(throws: CartError.orderNotFound(5)) { try store.service.forEachOrder(matching: OrderQuery(after: 5)) { _ in } }
        #expect(throws: CartError.invalidLimit(0)) { try store.service.orders(matching: OrderQuery(limit: 0)) }
        #expect(throws: CartError.invalidLimit(10_001)) {
            try store.service.orders(matching: OrderQuery(limit: 10_001))
        }
    }

    static func pagination(_ backend: Backend) throws {
        let store = try Store(backend)
        for index in 0..<250 { try store.placeOrder(index % 3 == 0 ? "alice" : "bob", [("apple", 1)]) }
        let newest = try allPages(store, OrderQuery(limit: 20))
        #expect(newest.numbers == Array((1...250).reversed()))
        #expect(newest.pages == 13)
        let oldest = try allPages(store, OrderQuery(sort: .oldestFirst, limit: 20))
        #expect(oldest.numbers == Array(1...250))
        #expect(oldest.pages == 13)
        let alice = try allPages(store, OrderQuery(cartID: "alice", sort: .oldestFirst, limit: 7))
        #expect(alice.numbers == Array(stride(from: 1, through: 250, by: 3)))
    }

    static func orderByNumber(_ backend: Backend) throws {
        let store = try fourOrders(backend)
        let order = try store.service.order(3)
        #expect(order.cartID == "alice")
        #expect(order.placedAt == at(3))
        #expect(order.lines.map(\.sku) == ["plum", "apple"])
        #expect(order.total == usd(250 + 250))
        #expect(throws: CartError.orderNotFound(0)) { try store.service.order(0) }
        #expect(throws: CartError.orderNotFound(5)) { try store.service.order(5) }
    }

    static func streaming(_ backend: Backend) throws {
        let store = try fourOrders(backend)
        var seen: [OrderNumber] = []
        #expect(try !store.service.forEachOrder(matching: OrderQuery(sku: "apple", sort: .oldestFirst)) { seen.append($0.number) })
        #expect(seen == [1, 3, 4])
        seen = []
        #expect(try store.service.forEachOrder(matching: OrderQuery(limit: 2)) { seen.append($0.number) }, "more follow")
        #expect(seen == [4, 3])
        seen = []
        #expect(try !store.service.forEachOrder(matching: OrderQuery(sku: "apple", limit: 3)) { seen.append($0.number) }, "no more")
        #expect(seen == [4, 3, 1])
        seen = []
        try store.service.forEachOrder(matching: OrderQuery(after: 3)) { seen.append($0.number) }
        #expect(seen == [2, 1])
    }

    static func streamingStops(_ backend: Backend) throws {
        struct Stop: Error, Equatable {}
        let store = try fourOrders(backend)
        var seen = 0
        #expect(throws: Stop()) {
            try store.service.forEachOrder(matching: OrderQuery()) { _ in
                seen += 1
                if seen == 2 { throw Stop() }
            }
        }
        #expect(seen == 2)
    }

    static func millisecondInstants(_ backend: Backend) throws {
        let store = try Store(backend)
        let instant = "2038-01-20T03:27:41.686Z"
        store.clock.set(try #require(UTCCalendar.parse(instant)))
        try store.service.add("apple", to: "alice")
        #expect(UTCCalendar.iso8601(try #require(store.service.listCarts().first).updatedAt) == instant)
        _ = try store.service.checkout("alice")
        let order = try store.service.order(1)
        #expect(UTCCalendar.iso8601(order.placedAt) == instant)
        #expect(try numbers(store, OrderQuery(placedOnOrAfter: order.placedAt)) == [1])
        #expect(try numbers(store, OrderQuery(placedBefore: order.placedAt)) == [])
    }

    static func subMillisecondClock(_ backend: Backend) throws {
        let store = try Store(backend)
        store.clock.set(TestClock.start.addingTimeInterval(0.123_456_7))
        try store.service.add("apple", to: "alice")
        let summary = try #require(try store.service.listCarts().first)
        #expect(UTCCalendar.iso8601(summary.updatedAt) == "2026-03-01T12:00:00.123Z")
        let stamped = UTCCalendar.date(milliseconds: UTCCalendar.milliseconds(TestClock.start) + 123)
        #expect(summary.updatedAt == stamped, "stamped to the whole millisecond")
        let first = try store.service.checkout("alice", idempotencyKey: "k")
        #expect(try store.service.order(1) == first.order, "the stored order is the one returned")
        #expect(try store.service.checkout("alice", idempotencyKey: "k").order == first.order, "a replay returns the same")
        #expect(UTCCalendar.iso8601(first.order.placedAt) == "2026-03-01T12:00:00.123Z")
        // A bound between two stored milliseconds compares as the instant it is: .123 is
        // before .1239.
        #expect(try numbers(store, OrderQuery(placedOnOrAfter: TestClock.start.addingTimeInterval(0.123_9))) == [])
        #expect(try numbers(store, OrderQuery(placedBefore: TestClock.start.addingTimeInterval(0.123_9))) == [1])
        #expect(try store.service.prune(olderThan: TestClock.start.addingTimeInterval(0.123_9)) == 1, "changed before it")
        #expect(try store.service.prune(olderThan: TestClock.start.addingTimeInterval(0.124)) == 0, "nothing left")
    }

    /// Orders across a day and a month boundary:
    /// 2026-03-01 23:59:59 apple×2; 2026-03-02 00:00:00 pear×1 + plum×2; 2026-04-01 apple×1.
    private static func ordersOverDays(_ backend: Backend) throws -> Store {
        let store = try Store(backend)
        for (instant, items) in [
            ("2026-03-01T23:59:59Z", [("apple", 2)]),
            ("2026-03-02T00:00:00Z", [("pear", 1), ("plum", 2)]),
            ("2026-04-01T08:00:00Z", [("apple", 1)]),
        ] {
            store.clock.set(try #require(UTCCalendar.parse(instant)))
            for (sku, quantity) in items { try store.service.add(sku, quantity: quantity, to: "alice") }
            _ = try store.service.checkout("alice")
        }
        return store
    }

    static func statsTotal(_ backend: Backend) throws {
        let store = try ordersOverDays(backend)
        #expect(
            try store.service.orderStats(groupedBy: .total)
                == [OrderStatsRow(key: "total", orders: 3, items: 6, revenue: usd(250 + 99 + 500 + 125))])
        let since = try #require(UTCCalendar.parse("2026-03-02"))
        #expect(
            try store.service.orderStats(matching: OrderQuery(placedOnOrAfter: since), groupedBy: .total)
                == [OrderStatsRow(key: "total", orders: 2, items: 4, revenue: usd(99 + 500 + 125))])
        let empty = try Store(backend)
        #expect(
            try empty.service.orderStats(groupedBy: .total)
                == [OrderStatsRow(key: "total", orders: 0, items: 0, revenue: usd(0))])
    }

    static func statsByDayAndMonth(_ backend: Backend) throws {
        let store = try ordersOverDays(backend)
        #expect(
            try store.service.orderStats(groupedBy: .day) == [
                OrderStatsRow(key: "2026-03-01", orders: 1, items: 2, revenue: usd(250)),
                OrderStatsRow(key: "2026-03-02", orders: 1, items: 3, revenue: usd(599)),
                OrderStatsRow(key: "2026-04-01", orders: 1, items: 1, revenue: usd(125)),
            ])
        #expect(
            try store.service.orderStats(groupedBy: .month) == [
                OrderStatsRow(key: "2026-03", orders: 2, items: 5, revenue: usd(849)),
                OrderStatsRow(key: "2026-04", orders: 1, items: 1, revenue: usd(125)),
            ])
    }

    static func statsByProduct(_ backend: Backend) throws {
        let store = try ordersOverDays(backend)
        #expect(
            try store.service.orderStats(groupedBy: .product) == [
                OrderStatsRow(key: "plum", orders: 1, items: 2, revenue: usd(500)),
                OrderStatsRow(key: "apple", orders: 2, items: 3, revenue: usd(375)),
                OrderStatsRow(key: "pear", orders: 1, items: 1, revenue: usd(99)),
            ])
        #expect(
            try store.service.orderStats(matching: OrderQuery(sku: "pear"), groupedBy: .product).map(\.key)
                == ["plum", "pear"], "a SKU filter selects orders, then all their lines count")
    }

    static func statsTiesAndEpoch(_ backend: Backend) throws {
        let store = try Store(backend)
        store.clock.set(try #require(UTCCalendar.parse("1969-12-31T23:00:00Z")))
        try store.service.add("plum", to: "alice")
        try store.service.add("apple", quantity: 2, to: "alice")
        _ = try store.service.checkout("alice")
        #expect(try store.service.orderStats(groupedBy: .product).map(\.key) == ["apple", "plum"])
        #expect(try store.service.orderStats(groupedBy: .day).map(\.key) == ["1969-12-31"])
        #expect(try store.service.orderStats(groupedBy: .month).map(\.key) == ["1969-12"])
    }

    static func statsAtOffset(_ backend: Backend) throws {
        let store = try ordersOverDays(backend)
        let s = store.service
        let east = try #require(UTCOffset(parsing: "+00:01"))
        #expect(
            try s.orderStats(groupedBy: .day, utcOffset: east) == [
                OrderStatsRow(key: "2026-03-02", orders: 2, items: 5, revenue: usd(849)),
                OrderStatsRow(key: "2026-04-01", orders: 1, items: 1, revenue: usd(125)),
            ])
        let west = try #require(UTCOffset(parsing: "-08:00"))
        #expect(
            try s.orderStats(groupedBy: .day, utcOffset: west) == [
                OrderStatsRow(key: "2026-03-01", orders: 2, items: 5, revenue: usd(849)),
                OrderStatsRow(key: "2026-04-01", orders: 1, items: 1, revenue: usd(125)),
            ])
        let farWest = try #require(UTCOffset(parsing: "-08:01"))
        #expect(
            try s.orderStats(groupedBy: .month, utcOffset: farWest) == [
                OrderStatsRow(key: "2026-03", orders: 3, items: 6, revenue: usd(974))
            ])
        #expect(try s.orderStats(groupedBy: .day, utcOffset: .utc) == (try s.orderStats(groupedBy: .day)))
        for grouping in [OrderStatsGrouping.total, .product] {
            #expect(throws: CartError.utcOffsetNeedsDays(west, grouping: grouping)) {
                try s.orderStats(groupedBy: grouping, utcOffset: west)
            }
        }
        store.clock.set(try #require(UTCCalendar.parse("1970-01-01T00:30:00Z")))
        try s.add("apple", to: "epoch")
        _ = try s.checkout("epoch")
        let halfHourWest = try #require(UTCOffset(parsing: "-00:31"))
        let days = try s.orderStats(matching: OrderQuery(cartID: "epoch"), groupedBy: .day, utcOffset: halfHourWest)
        #expect(days.map(\.key) == ["1969-12-31"])
    }

    // SQLite inserts up to 16 order lines per statement; these counts cross that bound.
    static func ordersOfManyLines(_ backend: Backend) throws {
        let store = try Store(backend)
        let orders = [1, 15, 16, 17, 33, 40].enumerated().map { index, count in
            let lines = (1...count).map { position in
                OrderLine(
                    sku: "sku-\(position)", name: "Product \(position)", unitPrice: usd(Int64(position)),
                    quantity: position, lineTotal: usd(Int64(position * position)))
            }
            return Order(
                number: OrderNumber(rawValue: Int64(index + 1)), cartID: "alice", placedAt: store.clock.now,
                currency: .usd, totalItems: lines.reduce(0) { $0 + $1.quantity },
                total: usd(lines.reduce(0) { $0 + $1.lineTotal.minorUnits }), idempotencyKey: nil, lines: lines)
        }
        try store.repository.write { storage in
            for order in orders { try storage.insertOrder(order) }
        }
        for order in orders {
            #expect(try store.repository.read { try $0.order(number: order.number) } == order)
        }
        // The storage answers a number no order can have, which only the service refuses.
        for number in [0, -1, Int64.min, Int64.max] {
            #expect(try store.repository.read { try $0.order(number: OrderNumber(rawValue: number)) } == nil)
        }
    }

    static func statsOverflow(_ backend: Backend) throws {
        let store = try Store(backend)
        // No checkout can place such orders; another client writing storage directly can.
        let huge = usd(Int64.max / 2 + 1)
        try store.repository.write { storage in
            for number: Int64 in 1...2 {
                let line = OrderLine(sku: "apple", name: "Apple", unitPrice: huge, quantity: 1, lineTotal: huge)
                try storage.insertOrder(
                    Order(
                        number: OrderNumber(rawValue: number), cartID: "alice", placedAt: store.clock.now,
                        currency: .usd, totalItems: 1, total: huge, idempotencyKey: nil, lines: [line]))
            }
        }
        for grouping in OrderStatsGrouping.allCases {
            #expect(throws: CartError.amountOverflow, "\(grouping)") { try store.service.orderStats(groupedBy: grouping) }
        }
    }
}
