import CartCore
import CartSQLite
import CartStore
import Foundation  // localizedDescription
import Observation
import Testing

/// What views observing a store are told, tracked as SwiftUI tracks a view's `body`.
@Suite("CartStore observation")
@MainActor
struct CartStoreObservationTests {
    @Test("a view reading totalItems is notified on add")
    func totalItemsNotifiedOnAdd() throws {
        let store = try CartStore(service: try makeService(), cartID: "alice")
        let log = NotificationLog()
        withObservationTracking { _ = store.totalItems } onChange: { log.record("totalItems") }
        store.add("apple", quantity: 2)
        #expect(log.recorded == ["totalItems"])
        #expect(store.totalItems == 2)
        #expect(store.quantity(of: "apple") == 2)
    }

    @Test("a view reading only another cart's store is not notified")
    func otherCartNotNotified() throws {
        let service = try makeService()
        let alice = try CartStore(service: service, cartID: "alice")
        let bob = try CartStore(service: service, cartID: "bob")
        let log = NotificationLog()
        trackEachProperty(of: bob, into: log)
        alice.add("apple")
        bob.refresh()
        #expect(log.recorded.isEmpty)
        #expect(alice.totalItems == 1)
        #expect(bob.totalItems == 0)
    }

    @Test("an invalid add notifies nothing but lastError, and changes nothing else")
    func invalidAddNotifiesOnlyLastError() throws {
        let store = try CartStore(service: try makeService(), cartID: "alice")
        store.add("apple")
        let before = (store.items, store.totalItems, store.subtotal, store.version)
        let log = NotificationLog()
        trackEachProperty(of: store, into: log)
        store.add("rare", quantity: 2)
        #expect(log.recorded == ["lastError"])
        #expect(store.lastError == .rule(.insufficientStock(sku: "rare", requested: 2, available: 1)))
        #expect(store.items == before.0)
        #expect(store.totalItems == before.1)
        #expect(store.subtotal == before.2)
        #expect(store.version == before.3)
    }

    @Test("the same refusal twice notifies lastError once")
    func repeatedRefusalNotifiesOnce() throws {
        let store = try CartStore(service: try makeService(), cartID: "alice")
        store.add("no-such-sku")
        let log = NotificationLog()
        trackEachProperty(of: store, into: log)
        store.add("no-such-sku")
        #expect(log.recorded.isEmpty)
        #expect(store.lastError == .rule(.unknownProduct("no-such-sku")))
    }

    @Test("a successful change clears lastError")
    func successClearsLastError() throws {
        let store = try CartStore(service: try makeService(), cartID: "alice")
        store.add("apple", quantity: 0)
        #expect(store.lastError == .rule(.invalidQuantity(given: 0, range: 1...Int.max)))
        store.add("apple")
        #expect(store.lastError == nil)
    }

    @Test("lastError is caught by category and reads as its message, whether a rule or the storage refused")
    func lastErrorCategories() throws {
        let repository = ProbeRepository()
        let store = try CartStore(service: try makeService(repository), cartID: "alice")
        store.add("apple", quantity: 0)
        let refusal = try #require(store.lastError)
        #expect(ErrorCategory(of: refusal) == .invalidInput)
        #expect(refusal.localizedDescription == refusal.description)
        repository.setFailing(true)
        store.add("apple")
        let outage = try #require(store.lastError)
        #expect((outage as any CategorizedError).category == .unavailable)
        #expect(outage.localizedDescription == "The store is busy or out of reach; try again.")
    }

    @Test("a SQLite store that another connection keeps locked reads as busy, in words without SQL")
    func lockedSQLiteStoreReadsAsBusy() throws {
        let database = try TemporaryDatabase()
        let store = try CartStore(
            service: try makeService(try SQLiteCartRepository(path: database.path, busyTimeout: .milliseconds(50))),
            cartID: "alice")
        try database.connection().write { _ in MainActor.assumeIsolated { store.add("apple") } }
        guard case .storage(let category, let message, let detail)? = store.lastError else {
            Issue.record("expected a storage error, got \(String(describing: store.lastError))")
            return
        }
        #expect(category == .unavailable)
        #expect(message == "The store is busy or out of reach; try again.")
        #expect(store.lastError?.localizedDescription == message)
        #expect(detail.contains("locked"))
        #expect(store.totalItems == 0)
    }

    @Test("a price change notifies items and subtotal, not totalItems or version")
    func priceChangeSparesTotalItems() throws {
        let service = try makeService()
        let store = try CartStore(service: service, cartID: "alice")
        store.add("pear", quantity: 2)
        let log = NotificationLog()
        trackEachProperty(of: store, into: log)
        try service.updateProduct("pear", with: ProductUpdate(price: Money(minorUnits: 300, currency: .usd)))
        store.refresh()
        #expect(Set(log.recorded) == ["items", "subtotal"])
        #expect(store.subtotal == Money(minorUnits: 600, currency: .usd))
    }

    @Test("Observations delivers the new total after an add")
    func observationsSequenceSeesAdd() async throws {
        let store = try CartStore(service: try makeService(), cartID: "alice")
        let totals = Observations { store.totalItems }
        let adding = Task { @MainActor in store.add("apple", quantity: 3) }
        let total = try await firstElement(of: totals) { $0 == 3 }
        await adding.value
        #expect(total == 3)
    }

    @Test("a storage failure is reported as a storage error and changes nothing else")
    func storageFailureReported() throws {
        let repository = ProbeRepository()
        let store = try CartStore(service: try makeService(repository), cartID: "alice")
        store.add("apple")
        let log = NotificationLog()
        trackEachProperty(of: store, into: log)
        repository.setFailing(true)
        store.add("apple")
        #expect(store.lastError == .storage(.unavailable, message: "The store is busy or out of reach; try again.", detail: "disk unplugged"))
        #expect(log.recorded == ["lastError"])
        #expect(store.totalItems == 1)
    }

    @Test("a checkout whose re-read fails still answers its order, and the next refresh shows the cart")
    func committedChangeSurvivesFailedRead() throws {
        let repository = ProbeRepository()
        let store = try CartStore(service: try makeService(repository), cartID: "alice")
        store.add("apple")
        repository.failAfterNextWrite()
        let placed = try #require(store.checkout(idempotencyKey: "tap-1"))
        #expect(placed.order.totalItems == 1)
        #expect(store.lastError == .storage(.unavailable, message: "The store is busy or out of reach; try again.", detail: "disk unplugged"))
        repository.setFailing(false)
        store.refresh()
        #expect(store.isEmpty && store.lastError == nil)
    }
}
