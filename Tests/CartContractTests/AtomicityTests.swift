import CartCore
import Testing
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The error the bodies below throw after writing.
private struct Boom: Error, Equatable {}

@Suite("Atomic units roll back completely")
struct AtomicityTests {
    /// Runs `body` in a write unit that then throws, and expects the store to be exactly as
    /// before and the body's error to come back unchanged.
    private func expectRollback(
        _ store: Store, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: (any CartStorageWriter) throws -> Void
    ) throws {
        let before = try store.state()
        #expect(throws: Boom(), sourceLocation: sourceLocation) {
            try store.repository.write { storage in
                try body(storage)
                throw Boom()
            }
        }
        #expect(try store.state() == before, sourceLocation: sourceLocation)
    }

    /// A store where alice holds 2 apples and 1 pear, and one order was placed by bob.
    private func busyStore(_ backend: Backend) throws -> Store {
        let store = try Store(backend)
        try store.placeOrder("bob", [("plum", 1)], key: "bob-1")
        try store.service.add("apple", quantity: 2, to: "alice")
        try store.service.add("pear", to: "alice")
        return store
    }

    /// The order a checkout of alice's cart in `busyStore` would place.
    private func secondOrder(_ store: Store, key: String?) -> Order {
        let line = OrderLine(sku: "apple", name: "Apple", unitPrice: usd(125), quantity: 2, lineTotal: usd(250))
        return Order(
            number: 2, cartID: "alice", placedAt: store.clock.now, currency: .usd, totalItems: 2,
            total: usd(250), idempotencyKey: key, lines: [line])
    }

    @Test("product writes vanish when the unit throws", arguments: Backend.allCases)
    func productsRollBack(_ backend: Backend) throws {
        let store = try busyStore(backend)
        try expectRollback(store) { storage in
            try storage.saveProduct(Product(sku: "fig", name: "Fig", price: usd(40)))
            try storage.saveProduct(Product(sku: "apple", name: "Changed", price: usd(1), isActive: false, stock: 3))
            #expect(try storage.product(sku: "fig") != nil, "the body sees its own writes")
            #expect(try storage.product(sku: "apple")?.name == "Changed")
        }
        #expect(throws: CartError.unknownProduct("fig")) { try store.service.product("fig") }
    }

    @Test("upsertProducts stores and counts as upsertProduct in order would, and vanishes when the unit throws", arguments: Backend.allCases)
    func batchUpsert(_ backend: Backend) throws {
        let store = try busyStore(backend)
        var products = (0..<150).map { Product(sku: "b\($0)", name: "B \($0)", price: usd(10)) }
        products[70] = Catalog.apple  // stored as it is: unchanged
        products[71] = Product(sku: "pear", name: "Pear", price: usd(89), stock: 5)  // updated
        products[100] = Product(sku: "b3", name: "B again", price: usd(11))  // repeated, different: updated
        products[101] = Product(sku: "b4", name: "B 4", price: usd(10))  // repeated, the same: unchanged
        try expectRollback(store) { storage in
            let counts = try storage.upsertProducts(products)
            #expect(counts.created == 146)
            #expect(counts.updated == 2)
            #expect(try storage.product(sku: "b3")?.name == "B again")
            #expect(try storage.product(sku: "pear")?.price == usd(89))
            #expect(try storage.product(sku: "b149") == products[149])
            #expect(try storage.productCount() == 150)
        }
    }

    @Test("saveStock changes the stock alone, and vanishes when the unit throws", arguments: Backend.allCases)
    func stockWrites(_ backend: Backend) throws {
        let store = try busyStore(backend)
        let before = try store.service.product("apple")
        try expectRollback(store) { storage in
            try storage.saveStock(sku: "apple", stock: 7)
            #expect(try storage.product(sku: "apple")?.stock == 7, "the body sees its own writes")
        }
        #expect(try store.service.product("apple") == before)
        try store.service.repository.write { storage in try storage.saveStock(sku: "apple", stock: 4) }
        var expected = before
        expected.stock = 4
        #expect(try store.service.product("apple") == expected)
        try store.service.repository.write { storage in try storage.saveStock(sku: "apple", stock: nil) }
        expected.stock = nil
        #expect(try store.service.product("apple") == expected)
        // A stock write that finds no product fails on every backend; it never vanishes.
        let state = try store.state()
        #expect(throws: (any Error).self) {
            try store.service.repository.write { storage in try storage.saveStock(sku: "ghost", stock: 1) }
        }
        #expect(try store.state() == state)
    }

    @Test("cart line writes vanish when the unit throws", arguments: Backend.allCases)
    func linesRollBack(_ backend: Backend) throws {
        let store = try busyStore(backend)
        try expectRollback(store) { storage in
            try storage.setCartLine(cartID: "alice", sku: "apple", quantity: 7)
            try storage.deleteCartLine(cartID: "alice", sku: "pear")
            try storage.setCartLine(cartID: "alice", sku: "plum", quantity: 1)
            try storage.setCartLine(cartID: "carol", sku: "plum", quantity: 2)
            #expect(try storage.cartLineQuantity(cartID: "alice", sku: "apple") == 7)
            #expect(try storage.cartLineCount(cartID: "carol") == 1)
        }
        try expectRollback(store) { storage in
            try storage.deleteCartLines(cartID: "alice")
            #expect(try storage.cartLines(cartID: "alice").isEmpty)
        }
        #expect(try store.skus("alice") == ["apple", "pear"])
        #expect(try store.quantities("alice") == ["apple": 2, "pear": 1])
    }

    @Test("cart header writes vanish when the unit throws", arguments: Backend.allCases)
    func headersRollBack(_ backend: Backend) throws {
        let store = try busyStore(backend)
        try expectRollback(store) { storage in
            try storage.saveCartHeader(CartHeader(id: "alice", version: 40, updatedAt: store.clock.now))
            try storage.saveCartHeader(CartHeader(id: "carol", version: 1, updatedAt: store.clock.now))
            #expect(try storage.cartHeader(id: "alice")?.version == 40)
        }
        #expect(try store.service.cart("alice").version == 2)
        #expect(try store.service.listCarts().map(\.id) == ["alice", "bob"])
    }

    @Test("a new order vanishes with its number and key when the unit throws", arguments: Backend.allCases)
    func ordersRollBack(_ backend: Backend) throws {
        let store = try busyStore(backend)
        try expectRollback(store) { storage in
            try storage.insertOrder(secondOrder(store, key: "alice-1"))
            #expect(try storage.lastOrderNumber() == 2)
            #expect(try storage.order(idempotencyKey: "alice-1") != nil)
        }
        #expect(throws: CartError.orderNotFound(2)) { try store.service.order(2) }
        let result = try store.service.checkout("alice", idempotencyKey: "alice-1")
        #expect(result.order.number == 2)
        #expect(!result.replayed)
        #expect(result.order.totalItems == 3)
    }

    @Test("settings writes vanish when the unit throws", arguments: Backend.allCases)
    func settingsRollBack(_ backend: Backend) throws {
        let store = try busyStore(backend)
        try expectRollback(store) { storage in
            try storage.saveSettings(StoreSettings(currency: .usd, maxLineQuantity: 1, maxLinesPerCart: 1))
            #expect(try storage.settings().maxLineQuantity == 1)
        }
        #expect(try store.service.settings() == .defaults)
    }

    @Test("deleted carts come back when the unit throws", arguments: Backend.allCases)
    func pruneRollsBack(_ backend: Backend) throws {
        let store = try busyStore(backend)
        try expectRollback(store) { storage in
            let removed = try storage.deleteCarts(updatedBefore: Date.distantFuture)
            #expect(removed == 2)
            #expect(try storage.carts().isEmpty)
        }
        #expect(try store.quantities("alice") == ["apple": 2, "pear": 1])
    }

    @Test("a unit that writes every kind of row and then throws leaves no trace", arguments: Backend.allCases)
    func everythingRollsBack(_ backend: Backend) throws {
        let store = try busyStore(backend)
        try expectRollback(store) { storage in
            try storage.saveSettings(StoreSettings(currency: .usd, maxLineQuantity: 2, maxLinesPerCart: 2))
            try storage.saveProduct(Product(sku: "fig", name: "Fig", price: usd(40), stock: 1))
            try storage.setCartLine(cartID: "alice", sku: "fig", quantity: 1)
            try storage.saveCartHeader(CartHeader(id: "alice", version: 3, updatedAt: store.clock.now))
            try storage.insertOrder(secondOrder(store, key: nil))
            _ = try storage.deleteCarts(updatedBefore: Date.distantFuture)
        }
        #expect(try store.service.cart("alice").version == 2)
        #expect(try store.service.order(1).cartID == "bob")
    }

    @Test("a unit that returns commits all its writes", arguments: Backend.allCases)
    func successfulUnitCommits(_ backend: Backend) throws {
        let store = try busyStore(backend)
        try store.repository.write { storage in
            try storage.saveProduct(Product(sku: "fig", name: "Fig", price: usd(40)))
            try storage.setCartLine(cartID: "alice", sku: "fig", quantity: 4)
            try storage.saveCartHeader(CartHeader(id: "alice", version: 3, updatedAt: store.clock.now))
        }
        #expect(try store.quantities("alice") == ["apple": 2, "pear": 1, "fig": 4])
        #expect(try store.service.cart("alice").version == 3)
    }
}
