import CartCore
import CartInMemory
import CartSQLite
import CartStore
import Dispatch
import Testing

/// The change feed of one cart.
@Suite("Cart snapshots")
struct CartSnapshotsTests {
    /// A repository whose change token waits for a gate: a read that blocks, as one waiting for
    /// another process's lock does.
    struct GatedRepository: CartRepository {
        let base: any CartRepository
        let gate: DispatchSemaphore

        func write<Result>(_ body: (any CartStorageWriter) throws -> Result) throws -> Result { try base.write(body) }
        func read<Result>(_ body: (any CartStorageReader) throws -> Result) throws -> Result { try base.read(body) }
        func changeToken() throws -> Int64 {
            guard gate.wait(timeout: .now() + 10) == .success else { throw CancellationError() }
            return try base.changeToken()
        }
    }

    @Test(
        "iterations whose reads block do not hold the cooperative pool: a task they wait for still runs",
        .timeLimit(.minutes(2)))
    func blockedReadsLeaveThePoolFree() async throws {
        let gate = DispatchSemaphore(value: 0)
        let service = CartService(repository: GatedRepository(base: InMemoryCartRepository(), gate: gate))
        // More blocked iterations than the cooperative pool has threads: were their reads run
        // on it, the task that opens the gate could never start.
        let iterations = 12
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<iterations {
                group.addTask {
                    var snapshots = CartSnapshots(service: service, cartID: "alice").makeAsyncIterator()
                    return try await snapshots.next()?.cart.version == 0
                }
            }
            group.addTask {
                for _ in 0..<iterations { await Task.yield() }
                for _ in 0..<iterations { gate.signal() }
                return true
            }
            for try await delivered in group { #expect(delivered, "an iteration did not deliver the empty cart") }
        }
    }

    @Test("snapshots start with the current cart and deliver each change, not other carts' changes")
    func deliversOwnChangesOnly() async throws {
        let database = try TemporaryDatabase()
        let other = try makeService(try database.connection())
        try other.add("apple", to: "alice")
        let watcher = CartService(repository: try database.connection())
        var snapshots = CartSnapshots(service: watcher, cartID: "alice", interval: .milliseconds(20))
            .makeAsyncIterator()

        let first = try #require(try await snapshots.next())
        #expect(first.cart.version == 1)
        try other.add("apple", to: "alice")
        let second = try #require(try await snapshots.next())
        #expect(second.cart.quantity(of: "apple") == 2)
        try other.add("pear", to: "bob")
        try other.add("pear", to: "alice")
        let third = try #require(try await snapshots.next())
        #expect(third.cart.version == 3)
        #expect(third.cart.quantity(of: "pear") == 1)
    }

    @Test("a repricing of a product in the cart is a new snapshot")
    func repricingIsDelivered() async throws {
        let service = try makeService()
        try service.add("pear", to: "alice")
        var snapshots = CartSnapshots(service: service, cartID: "alice", interval: .milliseconds(20))
            .makeAsyncIterator()
        _ = try await snapshots.next()
        try service.updateProduct("pear", with: ProductUpdate(price: Money(minorUnits: 199, currency: .usd)))
        let repriced = try #require(try await snapshots.next())
        #expect(repriced.cart.subtotal == Money(minorUnits: 199, currency: .usd))
        #expect(repriced.cart.version == 1)
    }

    @Test("a change that only changes the cart's problems is a new snapshot")
    func problemsAreDelivered() async throws {
        let service = try makeService()
        try service.add("pear", quantity: 2, to: "alice")
        var snapshots = CartSnapshots(service: service, cartID: "alice", interval: .milliseconds(20))
            .makeAsyncIterator()
        let first = try #require(try await snapshots.next())
        #expect(first.canCheckOut)
        try service.updateProduct("pear", with: ProductUpdate(isActive: false))
        let inactive = try #require(try await snapshots.next())
        #expect(inactive.cart == first.cart)
        #expect(inactive.problems.map(\.sku) == ["pear"])
        try service.updateProduct("pear", with: ProductUpdate(stock: .tracked(1), isActive: true))
        let short = try #require(try await snapshots.next())
        #expect(short.cart == first.cart)
        #expect(short.problems.count == 1)
        #expect(short.problems != inactive.problems)
        try service.updateProduct("pear", with: ProductUpdate(stock: .tracked(5)))
        let fixed = try #require(try await snapshots.next())
        #expect(fixed.canCheckOut)
    }

    @Test("after a read that fails, the next snapshot is delivered even if it equals the last one", .timeLimit(.minutes(1)))
    func deliveredAgainAfterFailedRead() async throws {
        let database = try TemporaryDatabase()
        let service = try makeService(try database.connection())
        try service.add("pear", to: "alice")
        var snapshots = CartSnapshots(service: service, cartID: "alice", interval: .milliseconds(20))
            .makeAsyncIterator()
        let first = try #require(try await snapshots.next())
        // Another client stores a price no product can have: the cart cannot be read.
        try database.sqlite3("PRAGMA ignore_check_constraints = ON; UPDATE products SET price = -5 WHERE sku = 'pear'")
        await #expect(throws: StoredDataError.self) { _ = try await snapshots.next() }
        // Mended to what it was: the cart is the one delivered before the failure, delivered again.
        try service.updateProduct("pear", with: ProductUpdate(price: Money(minorUnits: 250, currency: .usd)))
        #expect(try await snapshots.next() == first)
    }

    @Test("the sequence ends when its task is cancelled")
    func endsOnCancellation() async throws {
        let service = try makeService()
        let watching = Task {
            var count = 0
            for try await _ in CartSnapshots(service: service, cartID: "alice", interval: .milliseconds(20)) {
                count += 1
            }
            return count
        }
        watching.cancel()
        let count = try await watching.value
        #expect(count <= 1)
    }

    @Test("an invalid cart ID is thrown by the first read")
    func invalidCartIDThrown() async throws {
        let service = try makeService()
        var snapshots = CartSnapshots(service: service, cartID: "", interval: .milliseconds(20)).makeAsyncIterator()
        await #expect(throws: CartError.self) { _ = try await snapshots.next() }
    }
}
