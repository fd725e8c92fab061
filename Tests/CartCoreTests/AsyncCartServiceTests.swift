import CartCore
import CartInMemory
import Dispatch
import Foundation
import Synchronization
import Testing

/// `CartService.async` runs each unit as the synchronous unit it is, on `BlockingThreads`.
@Suite("The async face")
struct AsyncCartServiceTests {
    private static func service() throws -> CartService {
        let service = CartService(
            repository: InMemoryCartRepository(), clock: { Date(timeIntervalSince1970: 1_772_366_400) })
        try service.updateSettings(maxLineQuantity: 1_000_000)
        try service.addProduct(Product(sku: "apple", name: "Apple", price: Money(minorUnits: 125, currency: .usd)))
        return service
    }

    @Test("many concurrent adds from a task group give the exact total and one version each")
    func concurrentAdds() async throws {
        let carts = try Self.service().async
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<400 {
                group.addTask { try await carts.add("apple", to: "alice") }
            }
            try await group.waitForAll()
        }
        let cart = try await carts.cart("alice")
        #expect(cart.totalItems == 400)
        #expect(cart.version == 400)
        #expect(cart.subtotal == Money(minorUnits: 400 * 125, currency: .usd))
    }

    @Test("an error a unit throws comes back to the awaiting caller unchanged")
    func errorsComeBack() async throws {
        let carts = try Self.service().async
        await #expect(throws: CartError.unknownProduct("pear")) { try await carts.add("pear", to: "alice") }
        await #expect(throws: CartError.emptyCart("alice")) { try await carts.checkout("alice") }
        #expect(try await carts.listCarts().isEmpty)
    }

    @Test("the catalog, settings, reports, pages, counts, order walks and pruning are there too")
    func everyOperation() async throws {
        let carts = try Self.service().async
        try await carts.updateSettings(maxLinesPerCart: 5)
        #expect(try await carts.settings().maxLinesPerCart == 5)
        try await carts.addProduct(Product(sku: "pear", name: "Pear", price: Money(minorUnits: 80, currency: .usd)))
        #expect(try await carts.products(matching: ProductQuery()).products.map(\.sku) == ["apple", "pear"])
        #expect(try await carts.deleteProduct("pear").sku == "pear")
        try await carts.add("apple", quantity: 2, to: "alice")
        #expect(try await carts.cartReport("alice").cart.totalItems == 2)
        #expect(try await carts.carts(matching: CartQuery()).carts.map(\.id) == ["alice"])
        #expect(try await carts.counts() == StoreCounts(products: 1, carts: 1, orders: 0))
        let number = try await carts.checkout("alice").order.number
        let walked = Mutex<[OrderNumber]>([])
        try await carts.forEachOrder(matching: OrderQuery()) { order in walked.withLock { $0.append(order.number) } }
        #expect(walked.withLock { $0 } == [number])
        #expect(try await carts.storeSecret() == carts.service.storeSecret())
        #expect(try await carts.apply(.add(sku: "apple", quantity: 1), to: "carol", expectedVersion: 0).version == 1)
        let (update, report) = try await carts.applyAndReport(
            .setQuantity(sku: "apple", quantity: 3), to: "carol", expectedVersion: 1)
        #expect(update.previousQuantity == 1)
        #expect(report.cart.totalItems == 3)
        #expect(report.cart.version == 2)
        try await carts.add("apple", to: "bob")
        let stored = try await carts.listCarts().count
        #expect(stored >= 1)
        #expect(try await carts.prune(olderThan: Date(timeIntervalSince1970: 1_772_366_401)) == stored)
        #expect(try await carts.listCarts().isEmpty)
    }

    @Test("stats and merges take every argument the synchronous calls take")
    func argumentsPassThrough() async throws {
        let carts = try Self.service().async
        try await carts.add("apple", quantity: 2, to: "alice")
        _ = try await carts.checkout("alice")
        for grouping in OrderStatsGrouping.allCases {
            let rows = try await carts.orderStats(groupedBy: grouping)
            #expect(rows.map(\.items) == [2], "by \(grouping)")
        }
        let east = try #require(UTCOffset(parsing: "+14:00"))
        #expect(try await carts.orderStats(groupedBy: .day, utcOffset: east).map(\.key) == ["2026-03-02"])
        await #expect(throws: CartError.utcOffsetNeedsDays(east, grouping: .total)) {
            try await carts.orderStats(groupedBy: .total, utcOffset: east)
        }

        try await carts.add("apple", to: "guest")
        let version = try await carts.cart("alice").version
        await #expect(throws: CartError.versionConflict(cart: "alice", expected: version + 1, actual: version)) {
            try await carts.merge(from: "guest", into: "alice", expectedVersion: version + 1)
        }
        #expect(try await carts.merge(from: "guest", into: "alice", expectedVersion: version).mergedLines == 1)
        await #expect(throws: CartError.cartNotFound("minted")) { try await carts.merge(from: "minted", into: "alice") }
        let merged = try await carts.merge(from: "minted", into: "alice", unwrittenSourceIsEmpty: true)
        #expect(merged.mergedLines == 0)
        #expect(try await carts.cart("alice").totalItems == 1)
    }

    @Test("units that block all at once do not hold the cooperative pool: a task they wait for still runs")
    func blockingUnitsLeaveThePoolFree() async throws {
        // More blocked units than the cooperative pool has threads: were they run on it, the
        // task that releases them could never start.
        let threads = BlockingThreads(count: 16)
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let units = 16
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<units {
                group.addTask {
                    try await threads.run {
                        started.signal()
                        return release.wait(timeout: .now() + 30) == .success
                    }
                }
            }
            group.addTask {
                for _ in 0..<units { await Task.yield() }
                for _ in 0..<units { release.signal() }
                return true
            }
            for try await released in group { #expect(released, "a unit waited for the release in vain") }
        }
        for _ in 0..<units { #expect(started.wait(timeout: .now()) == .success) }
    }
}
