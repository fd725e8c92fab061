import CartCore
import CartTestSupport
import CartSQLite
import Foundation
import Testing

@Suite("Order history query plans")
struct QueryPlanTests {
    static let since = Date(timeIntervalSince1970: 1_700_000_000)
    static let before = Date(timeIntervalSince1970: 1_800_000_000)

    /// Queries the CLI runs, with a page size and cursor as `cart orders` sends them.
    static let pagedQueries: [(String, OrderQuery)] = [
        ("all orders, newest first", OrderQuery(limit: 21)),
        ("all orders after a cursor", OrderQuery(after: 500, limit: 21)),
        ("oldest first after a cursor", OrderQuery(sort: .oldestFirst, after: 500, limit: 21)),
        ("one cart", OrderQuery(cartID: "alice", limit: 21)),
        ("one cart after a cursor", OrderQuery(cartID: "alice", after: 500, limit: 21)),
        ("a date range", OrderQuery(placedOnOrAfter: since, placedBefore: before, limit: 21)),
        ("one SKU", OrderQuery(sku: "apple", limit: 21)),
        ("one cart in a date range", OrderQuery(cartID: "alice", placedOnOrAfter: since, limit: 21)),
        ("one SKU after a cursor", OrderQuery(sku: "apple", after: 500, limit: 21)),
        ("one SKU in a date range, oldest first", OrderQuery(placedOnOrAfter: since, sku: "apple", sort: .oldestFirst, limit: 21)),
        ("a date range after a cursor", OrderQuery(placedOnOrAfter: since, placedBefore: before, after: 500, limit: 21)),
    ]

    @Test("paged history queries use an index or the primary key, never a full scan or a sort", arguments: pagedQueries)
    func pagedQueriesUseIndexes(name: String, query: OrderQuery) throws {
        let repository = try SQLiteCartRepository.inMemory()
        let plan = try repository.orderQueryPlan(for: query)
        let text = plan.joined(separator: " | ")
        #expect(!plan.isEmpty)
        // A bare "SCAN o" walks the whole table; a scan or search of an index in order stops at the limit.
        for step in plan where step.hasPrefix("SCAN") || step.hasPrefix("SEARCH") {
            #expect(step.contains("USING"), "\(name): \(text)")
        }
        #expect(!text.contains("USE TEMP B-TREE FOR ORDER BY"), "\(name): \(text)")
        if query.cartID != nil, query.sku == nil { #expect(text.contains("orders_by_cart"), "\(name): \(text)") }
        if query.cartID == nil, query.sku == nil { #expect(text.contains("orders_by_placed_at"), "\(name): \(text)") }
        if query.sku != nil { #expect(text.contains("order_lines_by_sku"), "\(name): \(text)") }
    }

    @Test("the idempotency-key look-up uses the partial unique index")
    func idempotencyKeyLookUpUsesIndex() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("cart.sqlite3")
        _ = try SQLiteCartRepository(path: path)
        let plan = try rows(path, "EXPLAIN QUERY PLAN SELECT number FROM orders WHERE idempotency_key = 'k'", column: 3)
        #expect(plan.joined().contains("orders_by_idempotency_key"), "\(plan)")
    }
}
