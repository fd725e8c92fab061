import CartCore
import CartTestSupport
import CartSQLite
import Foundation
import Testing

/// Two connections to one file, each driven from its own thread, as two processes would.
@Suite("SQLite concurrency across connections")
struct SQLiteConcurrencyTests {
    /// Runs `work(0)` and `work(1)` on two threads released at the same moment; rethrows the
    /// first error.
    func race(_ work: @escaping @Sendable (Int) throws -> Void) throws {
        let start = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        let errors = Collector<any Error>()
        for index in 0..<2 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                start.wait()
                do { try work(index) } catch { errors.append(error) }
            }
        }
        Thread.sleep(forTimeInterval: 0.01)
        start.signal()
        start.signal()
        group.wait()
        if let error = errors.first { throw error }
    }

    /// A database file, a service for setting it up, and two services on their own
    /// connections to race each other.
    func sharedFile() throws -> (TemporaryDirectory, CartService, [CartService]) {
        let directory = try TemporaryDirectory()
        let path = directory.path("cart.sqlite3")
        let setup = CartService(repository: try SQLiteCartRepository(path: path), clock: fixedClock)
        let racers = try (0..<2).map { _ in
            CartService(repository: try SQLiteCartRepository(path: path, busyTimeout: .seconds(30)), clock: fixedClock)
        }
        return (directory, setup, racers)
    }

    @Test("2 threads × 500 adds through two connections end with exactly 1000 units")
    func noLostUpdates() throws {
        let (directory, setup, services) = try sharedFile()
        defer { withExtendedLifetime(directory) {} }
        try setup.updateSettings(maxLineQuantity: 1000)
        try setup.seedCatalog(count: 1)
        try race { index in
            for _ in 0..<500 { try services[index].add("sku-0", to: "shared") }
        }
        let cart = try setup.cart("shared")
        #expect(cart.totalItems == 1000)
        #expect(cart.version == 1000)
    }

    @Test("two connections checking out the same cart create exactly one order")
    func racingCheckoutsOfOneCart() throws {
        let (directory, setup, services) = try sharedFile()
        defer { withExtendedLifetime(directory) {} }
        try setup.seedCatalog(count: 3)
        for round in 0..<20 {
            let cart = "race-\(round)"
            try setup.add("sku-0", quantity: 2, to: cart)
            try setup.add("sku-2", to: cart)
            let outcomes = Collector<String>()
            try race { index in
                do {
                    let result = try services[index].checkout(cart)
                    outcomes.append("order \(result.order.number)")
                } catch CartError.emptyCart {
                    outcomes.append("empty")
                }
            }
            #expect(outcomes.all.sorted().last == "order \(round + 1)")
            #expect(outcomes.all.sorted().first == "empty")
        }
        #expect(try setup.orders(matching: OrderQuery(limit: 100)).orders.count == 20)
    }

    @Test("two connections retrying one idempotency key get the same order, placed once")
    func racingIdempotentCheckouts() throws {
        let (directory, setup, services) = try sharedFile()
        defer { withExtendedLifetime(directory) {} }
        try setup.seedCatalog(count: 1)
        for round in 0..<20 {
            let cart = "key-race-\(round)"
            try setup.add("sku-0", to: cart)
            let outcomes = Collector<String>()
            try race { index in
                let result = try services[index].checkout(cart, idempotencyKey: "key-\(round)")
                outcomes.append("\(result.order.number) \(result.replayed)")
            }
            #expect(outcomes.all.sorted() == ["\(round + 1) false", "\(round + 1) true"])
        }
        #expect(try setup.orders(matching: OrderQuery(limit: 100)).orders.count == 20)
    }

    @Test("two carts racing for the last unit: one order, one refused checkout naming the SKU's short stock")
    func racingForLastUnit() throws {
        let (directory, setup, services) = try sharedFile()
        defer { withExtendedLifetime(directory) {} }
        try setup.seedCatalog(count: 1, stock: 0)
        for round in 0..<20 {
            try setup.updateProduct("sku-0", with: ProductUpdate(stock: .tracked(1)))
            try setup.add("sku-0", to: "a-\(round)")
            try setup.add("sku-0", to: "b-\(round)")
            let outcomes = Collector<String>()
            try race { index in
                do {
                    _ = try services[index].checkout(index == 0 ? "a-\(round)" : "b-\(round)")
                    outcomes.append("order")
                } catch CartError.cannotCheckOut(_, let problems) {
                    outcomes.append(problems.map { "\($0.sku ?? "-") \($0.code)" }.joined(separator: ", "))
                }
            }
            #expect(outcomes.all.sorted() == ["order", "sku-0 insufficient_stock"])
            #expect(try setup.product("sku-0").stock == 0)
        }
    }
}

/// Collects values from several threads.
final class Collector<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Value] = []

    func append(_ value: Value) { lock.withLock { values.append(value) } }
    var first: Value? { lock.withLock { values.first } }
    var all: [Value] { lock.withLock { values } }
}

