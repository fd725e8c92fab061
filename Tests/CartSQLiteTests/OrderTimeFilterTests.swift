import CartCore
import CartTestSupport
import CartSQLite
import Foundation
import Testing

@Suite("Order time filters in SQL")
struct OrderTimeFilterTests {
    /// 2026-03-01T12:00:00Z in milliseconds.
    private static let noon: Int64 = 1_772_366_400_000

    @Test(
        "a bound with digits below the millisecond selects what OrderQuery.includes selects",
        arguments: [
            "2026-03-01T12:00:00.0009Z", "2026-03-01T12:00:00.0001Z", "2026-03-01T12:00:00.9999Z",
            "2026-03-01T12:00:00.000Z", "2026-03-01T12:00:00.001Z", "2026-03-01T11:59:59.9999Z",
            "1969-12-31T23:59:59.9991Z", "1969-12-31T23:59:59.999Z", "1970-01-01T00:00:00.0000001Z",
        ])
    func subMillisecondBounds(_ text: String) throws {
        let directory = try TemporaryDirectory()
        let repository = try SQLiteCartRepository(path: directory.path("cart.sqlite3"))
        try CartService(repository: repository).seedCatalog(count: 1)
        for placed in [Self.noon - 1, Self.noon, Self.noon + 1, Self.noon + 999, Self.noon + 1000, -2, -1, 0, 1] {
            let service = CartService(repository: repository, clock: { UTCCalendar.date(milliseconds: placed) })
            try service.add("sku-0", to: "alice")
            _ = try service.checkout("alice")
        }
        let service = CartService(repository: repository)
        let all = try service.orders(matching: OrderQuery(limit: 100)).orders
        let bound = try #require(UTCCalendar.parse(text))
        for query in [OrderQuery(placedOnOrAfter: bound, limit: 100), OrderQuery(placedBefore: bound, limit: 100)] {
            let expected = query.select(from: all).map(\.number)
            #expect(try service.orders(matching: query).orders.map(\.number) == expected, "\(text) \(query)")
            let total = try #require(try service.orderStats(matching: query, groupedBy: .total).first)
            #expect(total.orders == expected.count, "\(text)")
        }
    }

    @Test("pruning removes a cart changed at .000 when the bound is .0009")
    func pruneBelowMillisecond() throws {
        let directory = try TemporaryDirectory()
        let repository = try SQLiteCartRepository(path: directory.path("cart.sqlite3"))
        let service = CartService(repository: repository, clock: { UTCCalendar.date(milliseconds: Self.noon) })
        try service.seedCatalog(count: 1)
        try service.add("sku-0", to: "alice")
        #expect(try service.prune(olderThan: try #require(UTCCalendar.parse("2026-03-01T12:00:00Z"))) == 0)
        #expect(try service.prune(olderThan: try #require(UTCCalendar.parse("2026-03-01T12:00:00.0009Z"))) == 1)
    }
}
