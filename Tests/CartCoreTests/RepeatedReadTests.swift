import CartCore
import CartInMemory
import Testing
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A backend that runs every read body twice, the second time after `between` changed the
/// store, as a backend does that finds its first read was not one snapshot (SQLite reading a
/// file it cannot lock while another process writes it).
private final class ReadingTwice: CartRepository, @unchecked Sendable {
    // @unchecked: `between` is set before the reads and only called from them.
    let base = InMemoryCartRepository()
    var between: () throws -> Void = {}

    func write<Result>(_ body: (any CartStorageWriter) throws -> Result) throws -> Result { try base.write(body) }

    func read<Result>(_ body: (any CartStorageReader) throws -> Result) throws -> Result {
        _ = try base.read(body)
        try between()
        return try base.read(body)
    }

    func changeToken() throws -> Int64 { try base.changeToken() }
}

@Suite("Reads a backend runs again")
struct RepeatedReadTests {
    /// Five orders placed a minute apart, with a repository that reads twice.
    private func store() throws -> (ReadingTwice, CartService) {
        let repository = ReadingTwice()
        let setup = CartService(repository: repository.base)
        try setup.addProduct(Product(sku: "apple", name: "Apple", price: Money(minorUnits: 100, currency: .usd)))
        for minute in 0..<5 {
            let service = CartService(repository: repository.base, clock: { Date(timeIntervalSince1970: Double(minute) * 60) })
            try service.add("apple", to: "c\(minute)")
            _ = try service.checkout("c\(minute)")
        }
        return (repository, CartService(repository: repository))
    }

    @Test("a page of orders read twice holds each order once")
    func pageOnce() throws {
        let (_, service) = try store()
        #expect(try service.orders(matching: OrderQuery(limit: 3)).orders.map(\.number) == [5, 4, 3])
    }

    @Test(
        "each order goes to forEachOrder's body once, also when an order was placed between the two reads",
        arguments: [OrderQuery.Sort.newestFirst, .oldestFirst])
    func eachOrderOnce(_ sort: OrderQuery.Sort) throws {
        let (repository, service) = try store()
        var placed = false
        repository.between = {
            guard !placed else { return }
            placed = true
            let later = CartService(repository: repository.base, clock: { Date(timeIntervalSince1970: 3_600) })
            try later.add("apple", to: "late")
            _ = try later.checkout("late")
        }
        var delivered: [Int64] = []
        try service.forEachOrder(matching: OrderQuery(sort: sort)) { delivered.append($0.number.rawValue) }
        #expect(delivered == (sort == .newestFirst ? [5, 4, 3, 2, 1] : [1, 2, 3, 4, 5, 6]))
        var limited: [Int64] = []
        try service.forEachOrder(matching: OrderQuery(sort: .oldestFirst, limit: 4)) { limited.append($0.number.rawValue) }
        #expect(limited == [1, 2, 3, 4])
    }
}
