import CartCore
import CartSQLite
import CartStore
import Observation
import Testing

/// Changes from other connections, standing for other processes, reaching a store.
@Suite("CartStore watching")
@MainActor
struct CartStoreWatchingTests {
    @Test("one poll picks up a change written by a second connection")
    func onePollSeesOtherConnection() throws {
        let database = try TemporaryDatabase()
        let store = try CartStore(service: try makeService(try database.connection()), cartID: "alice")
        let other = CartService(repository: try database.connection())
        #expect(store.refreshIfChanged() == false)
        try other.add("pear", quantity: 2, to: "alice")
        #expect(store.refreshIfChanged())
        #expect(store.quantity(of: "pear") == 2)
        #expect(store.refreshIfChanged() == false)
    }

    @Test("an idle poll reads the change token and not the cart")
    func idlePollReadsOnlyToken() throws {
        let repository = ProbeRepository()
        let store = try CartStore(service: try makeService(repository), cartID: "alice")
        store.add("apple")
        let before = repository.counts
        #expect(store.refreshIfChanged() == false)
        #expect(store.refreshIfChanged() == false)
        let after = repository.counts
        #expect(after.tokens == before.tokens + 2)
        #expect(after.reads == before.reads)
        #expect(after.writes == before.writes)
    }

    @Test("a poll that fails reports it, and the next good one clears it")
    func failedPollRecovers() throws {
        let repository = ProbeRepository()
        let store = try CartStore(service: try makeService(repository), cartID: "alice")
        repository.setFailing(true)
        #expect(store.refreshIfChanged() == false)
        #expect(store.lastError == .storage(.unavailable, message: "The store is busy or out of reach; try again.", detail: "disk unplugged"))
        repository.setFailing(false)
        store.refreshIfChanged()
        #expect(store.lastError == nil)
    }

    @Test("a change by a second connection reaches a watching store")
    func watchingStoreSeesOtherConnection() async throws {
        let database = try TemporaryDatabase()
        let store = try CartStore(service: try makeService(try database.connection()), cartID: "alice")
        let other = CartService(repository: try database.connection())
        store.startWatching(interval: .milliseconds(50))
        defer { store.stopWatching() }
        let totals = Observations { store.totalItems }
        try other.add("apple", quantity: 3, to: "alice")
        let total = try await firstElement(of: totals) { $0 == 3 }
        #expect(total == 3)
        #expect(store.version == 1)
    }

    @Test("watching stops on request and when the store is released")
    func watchingStops() throws {
        let service = try makeService()
        weak var released: CartStore?
        do {
            let store = try CartStore(service: service, cartID: "alice")
            store.startWatching(interval: .milliseconds(10))
            #expect(store.isWatching)
            store.stopWatching()
            #expect(store.isWatching == false)
            store.startWatching(interval: .milliseconds(10))
            released = store
        }
        #expect(released == nil)
    }
}
