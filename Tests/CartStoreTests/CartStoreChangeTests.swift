import CartCore
import CartStore
import Testing

/// The seed's operations, through the store and the service's rules.
@Suite("CartStore changes")
@MainActor
struct CartStoreChangeTests {
    @Test("add, remove, deleteLine and clear behave as the tutorial's cart manager")
    func seedOperations() throws {
        let store = try CartStore(service: try makeService(), cartID: "alice")
        #expect(store.isEmpty)
        #expect(store.version == 0)
        store.add("apple", quantity: 2)
        store.add("pear")
        store.add("apple")
        #expect(store.items.map(\.sku) == ["apple", "pear"])
        #expect(store.totalItems == 4)
        #expect(store.subtotal == Money(minorUnits: 550, currency: .usd))
        store.remove("apple", quantity: 2)
        #expect(store.quantity(of: "apple") == 1)
        store.remove("apple")
        #expect(store.items.map(\.sku) == ["pear"])
        store.add("apple", quantity: 5)
        store.deleteLine("apple")
        #expect(store.quantity(of: "apple") == 0)
        store.setQuantity("pear", to: 4)
        #expect(store.totalItems == 4)
        store.clear()
        #expect(store.isEmpty)
        #expect(store.subtotal == .zero(.usd))
        #expect(store.version == 9)
        #expect(store.lastError == nil)
    }

    @Test("removing what is not in the cart is refused")
    func removeMissingRefused() throws {
        let store = try CartStore(service: try makeService(), cartID: "alice")
        store.remove("apple")
        #expect(store.lastError == .rule(.notInCart(sku: "apple", cart: "alice")))
        #expect(store.version == 0)
    }

    @Test("checkout returns the order, empties the store, and replays with the same key")
    func checkoutEmptiesStore() throws {
        let store = try CartStore(service: try makeService(), cartID: "alice")
        store.add("pear", quantity: 2)
        let placed = try #require(store.checkout(idempotencyKey: "tap-1"))
        #expect(placed.replayed == false)
        #expect(placed.order.total == Money(minorUnits: 500, currency: .usd))
        #expect(store.isEmpty)
        let replayed = try #require(store.checkout(idempotencyKey: "tap-1"))
        #expect(replayed.replayed)
        #expect(replayed.order.number == placed.order.number)
        #expect(store.checkout() == nil)
        #expect(store.lastError == .rule(.emptyCart("alice")))
    }

    @Test("checkout at the total shown: a price changed unseen is not charged, and the store shows it")
    func checkoutAtTotalShown() throws {
        let service = try makeService()
        let store = try CartStore(service: service, cartID: "alice")
        store.add("pear", quantity: 2)
        let shown = store.subtotal
        try service.updateProduct("pear", with: ProductUpdate(price: Money(minorUnits: 300, currency: .usd)))
        #expect(store.checkout(idempotencyKey: "tap-1", expectedTotal: shown) == nil)
        #expect(store.lastError == .rule(.totalChanged(cart: "alice", expected: shown, actual: Money(minorUnits: 600, currency: .usd))))
        #expect(store.subtotal == Money(minorUnits: 600, currency: .usd))
        #expect(try service.counts().orders == 0)
        let placed = try #require(store.checkout(idempotencyKey: "tap-2", expectedTotal: store.subtotal))
        #expect(placed.order.total == Money(minorUnits: 600, currency: .usd))
        #expect(store.lastError == nil)
    }

    @Test("a store for an invalid cart ID is not created")
    func invalidCartIDRefused() throws {
        let service = try makeService()
        #expect(throws: CartError.self) { try CartStore(service: service, cartID: " alice") }
    }
}
