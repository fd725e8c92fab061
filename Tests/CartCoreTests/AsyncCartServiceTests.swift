import CartCore
import CartInMemory
import Dispatch
import Foundation
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
