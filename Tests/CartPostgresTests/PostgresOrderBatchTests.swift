import CartCore
import CartPostgres
import Foundation
import Testing

/// What the PostgreSQL store checks of a batch of orders beyond the contract: numbers in turn
/// from the last one, as its `insertOrder` checks them.
@Suite("Order batches in PostgreSQL")
struct PostgresOrderBatchTests {
    /// Orders numbered `numbers`, each of one line, placed at one instant.
    static func orders(_ numbers: [Int64]) -> [Order] {
        let usd = { (cents: Int64) in Money(minorUnits: cents, currency: .usd) }
        let line = OrderLine(sku: "apple", name: "Apple", unitPrice: usd(125), quantity: 2, lineTotal: usd(250))
        return numbers.map { number in
            Order(
                number: OrderNumber(rawValue: number), cartID: "alice", placedAt: Date(timeIntervalSince1970: 1_767_225_600),
                currency: .usd, totalItems: 2, total: usd(250), idempotencyKey: nil, lines: [line])
        }
    }

    @Test("a batch whose numbers do not follow the last one in turn is refused, and the unit goes on", TestServer.requires())
    func numbersOutOfTurn() throws {
        let schema = try TestSchema()
        defer { try? schema.drop() }
        let repository = try schema.repository()
        try repository.write { try $0.insertOrders(Self.orders([1, 2])) }
        for numbers in [[3, 5], [4, 5], [3, 3], [2, 3], Array(3...502) + [504]] as [[Int64]] {
            struct Undo: Error {}
            do {
                try repository.write { storage in
                    #expect(throws: PostgresStoreError.self, "\(numbers.prefix(3))…") {
                        try storage.insertOrders(Self.orders(numbers))
                    }
                    // The refused statement failed nothing: the unit reads and writes on.
                    let next = try storage.lastOrderNumber().rawValue + 1
                    try storage.insertOrders(Self.orders([next]))
                    throw Undo()
                }
            } catch is Undo {}
        }
        #expect(try repository.read { try $0.lastOrderNumber() } == OrderNumber(rawValue: 2))
        #expect(try repository.read { try $0.orderCount() } == 2)
    }
}
