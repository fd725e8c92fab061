import CartCore
import Testing
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A unit of work is atomic: when its body throws, nothing it wrote remains, whichever write
/// it reached, and the body's error comes back unchanged.
enum AtomicityContract {
    static let cases = ContractCase.suite(
        "Atomic units roll back completely", key: "atomicity",
        [
            ("productsRollBack", "product writes vanish when the unit throws", productsRollBack),
            ("batchInsert", "insertAbsentProducts stores new products as insertProduct in order would, and vanishes when the unit throws", batchInsert),
            ("stockWrites", "updateProductStock stores the new stock, and vanishes when the unit throws", stockWrites),
            ("linesRollBack", "cart line writes vanish when the unit throws", linesRollBack),
            ("headersRollBack", "cart header writes vanish when the unit throws", headersRollBack),
            ("ordersRollBack", "a new order vanishes with its number and key when the unit throws", ordersRollBack),
            ("settingsRollBack", "settings writes vanish when the unit throws", settingsRollBack),
            ("pruneRollsBack", "deleted carts come back when the unit throws", pruneRollsBack),
            ("everythingRollsBack", "a unit that writes every kind of row and then throws leaves no trace", everythingRollsBack),
            ("successfulUnitCommits", "a unit that returns commits all its writes", successfulUnitCommits),
            ("everyChangeFailingAtAnyWrite", "every service change that fails at any of its writes leaves the store as it was", everyChangeFailingAtAnyWrite),
        ])

    /// The error the bodies below throw after writing.
    private struct Boom: Error, Equatable {}

    /// Runs `body` in a write unit that then throws, and expects the store to be exactly as
    /// before and the body's error to come back unchanged.
    private static func expectRollback(
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

    static func productsRollBack(_ backend: Backend) throws {
        let store = try Store.busy(backend)
        try expectRollback(store) { storage in
            try storage.insertProduct(Product(sku: "fig", name: "Fig", price: usd(40)))
            try storage.updateProduct(Product(sku: "apple", name: "Changed", price: usd(1), isActive: false, stock: 3))
            #expect(try storage.product(sku: "fig") != nil, "the body sees its own writes")
            #expect(try storage.product(sku: "apple")?.name == "Changed")
        }
        #expect(throws: CartError.unknownProduct("fig")) { try store.service.product("fig") }
    }

    static func batchInsert(_ backend: Backend) throws {
        let store = try Store.busy(backend)
        // Two full batches of SQLite's 64 and a tail, in no SKU order.
        let products = (0..<150).map { (index: Int) -> Product in
            let stock: Int? = index % 3 == 0 ? nil : index
            return Product(
                sku: "b\(149 - index)", name: "B \(index)", price: usd(Int64(index)), isActive: index % 5 != 0, stock: stock)
        }
        try expectRollback(store) { storage throws in
            #expect(try storage.insertAbsentProducts(products) == Array(repeating: true, count: products.count))
            #expect(try storage.products(skus: products.map(\.sku)) == products)
            #expect(try storage.productCount() == 154)
        }
        try store.repository.write { storage throws in #expect(try storage.insertAbsentProducts([]) == []) }
        #expect(try store.repository.read { try $0.productCount() } == 4, "an empty batch stores nothing")
    }

    static func stockWrites(_ backend: Backend) throws {
        let store = try Store.busy(backend)
        let before = try store.service.product("apple")
        try expectRollback(store) { storage in
            try storage.updateProductStock(Product(sku: "apple", name: "Apple", price: usd(125), stock: 7))
            #expect(try storage.product(sku: "apple")?.stock == 7, "the body sees its own writes")
        }
        #expect(try store.service.product("apple") == before)
        var expected = before
        expected.stock = 4
        try store.service.repository.write { storage in try storage.updateProductStock(expected) }
        #expect(try store.service.product("apple") == expected)
        expected.stock = nil
        try store.service.repository.write { storage in try storage.updateProductStock(expected) }
        #expect(try store.service.product("apple") == expected)
        // A stock write that finds no product fails on every backend; it never vanishes.
        let state = try store.state()
        #expect(throws: (any Error).self) {
            try store.service.repository.write { storage in
                try storage.updateProductStock(Product(sku: "ghost", name: "Ghost", price: usd(1), stock: 1))
            }
        }
        #expect(try store.state() == state)
    }

    static func linesRollBack(_ backend: Backend) throws {
        let store = try Store.busy(backend)
        try expectRollback(store) { storage in
            try storage.updateCartLine(cartID: "alice", sku: "apple", quantity: 7)
            try storage.deleteCartLine(cartID: "alice", sku: "pear")
            try storage.insertCartLine(cartID: "alice", sku: "plum", quantity: 1, position: 3)
            try storage.insertCartLine(cartID: "carol", sku: "plum", quantity: 2, position: 1)
            try storage.saveCartHeader(CartHeader(id: "carol", version: 1, updatedAt: store.clock.now, lineCount: 1, nextLinePosition: 2), previousVersion: nil)
            #expect(try storage.lineContext(cartID: "alice", sku: "apple").quantity == 7)
            #expect(try storage.cartLines(cartID: "carol").count == 1)
        }
        try expectRollback(store) { storage in
            try storage.deleteCartLines(cartID: "alice")
            #expect(try storage.cartLines(cartID: "alice").isEmpty)
        }
        #expect(try store.skus("alice") == ["apple", "pear"])
        #expect(try store.quantities("alice") == ["apple": 2, "pear": 1])
    }

    static func headersRollBack(_ backend: Backend) throws {
        let store = try Store.busy(backend)
        try expectRollback(store) { storage in
            try storage.saveCartHeader(CartHeader(id: "alice", version: 40, updatedAt: store.clock.now, lineCount: 2, nextLinePosition: 3), previousVersion: 2)
            try storage.saveCartHeader(CartHeader(id: "carol", version: 1, updatedAt: store.clock.now, lineCount: 0, nextLinePosition: 1), previousVersion: nil)
            #expect(try storage.cartHeader(id: "alice")?.version == 40)
        }
        #expect(try store.service.cart("alice").version == 2)
        #expect(try store.service.listCarts().map(\.id) == ["alice", "bob"])
    }

    static func ordersRollBack(_ backend: Backend) throws {
        let store = try Store.busy(backend)
        try expectRollback(store) { storage in
            try storage.insertOrder(store.aliceOrder(2, key: "alice-1"))
            #expect(try storage.lastOrderNumber() == 2)
            #expect(try storage.order(idempotencyKey: "alice-1") != nil)
        }
        #expect(throws: CartError.orderNotFound(2)) { try store.service.order(2) }
        let result = try store.service.checkout("alice", idempotencyKey: "alice-1")
        #expect(result.order.number == 2)
        #expect(!result.replayed)
        #expect(result.order.totalItems == 3)
    }

    static func settingsRollBack(_ backend: Backend) throws {
        let store = try Store.busy(backend)
        try expectRollback(store) { storage in
            try storage.saveSettings(StoreSettings(currency: .usd, maxLineQuantity: 1, maxLinesPerCart: 1))
            #expect(try storage.settings().maxLineQuantity == 1)
        }
        #expect(try store.service.settings() == .defaults)
    }

    static func pruneRollsBack(_ backend: Backend) throws {
        let store = try Store.busy(backend)
        try expectRollback(store) { storage in
            let removed = try storage.deleteCarts(updatedBefore: Date.distantFuture)
            #expect(removed == 2)
            #expect(try storage.carts().isEmpty)
        }
        #expect(try store.quantities("alice") == ["apple": 2, "pear": 1])
    }

    static func everythingRollsBack(_ backend: Backend) throws {
        let store = try Store.busy(backend)
        try expectRollback(store) { storage in
            try storage.saveSettings(StoreSettings(currency: .usd, maxLineQuantity: 2, maxLinesPerCart: 2))
            try storage.insertProduct(Product(sku: "fig", name: "Fig", price: usd(40), stock: 1))
            try storage.insertCartLine(cartID: "alice", sku: "fig", quantity: 1, position: 3)
            try storage.saveCartHeader(CartHeader(id: "alice", version: 3, updatedAt: store.clock.now, lineCount: 3, nextLinePosition: 4), previousVersion: 2)
            try storage.deleteCart(id: "bob")
            try storage.insertOrder(store.aliceOrder(2, key: nil))
            _ = try storage.deleteCarts(updatedBefore: Date.distantFuture)
        }
        #expect(try store.service.cart("alice").version == 2)
        #expect(try store.service.order(1).cartID == "bob")
    }

    static func successfulUnitCommits(_ backend: Backend) throws {
        let store = try Store.busy(backend)
        try store.repository.write { storage in
            try storage.insertProduct(Product(sku: "fig", name: "Fig", price: usd(40)))
            try storage.insertCartLine(cartID: "alice", sku: "fig", quantity: 4, position: 3)
            try storage.saveCartHeader(CartHeader(id: "alice", version: 3, updatedAt: store.clock.now, lineCount: 3, nextLinePosition: 4), previousVersion: 2)
        }
        #expect(try store.quantities("alice") == ["apple": 2, "pear": 1, "fig": 4])
        #expect(try store.service.cart("alice").version == 3)
    }

    static func everyChangeFailingAtAnyWrite(_ backend: Backend) throws {
        let store = try Store.busy(backend)
        let imported = (0..<70).map { Product(sku: "n\($0)", name: "New \($0)", price: usd(100)) } + [Catalog.apple]
        let changes: [(name: String, change: (CartService) throws -> Void)] = [
            ("adding a new line", { _ = try $0.add("plum", quantity: 2, to: "alice") }),
            ("adding to a line", { _ = try $0.add("apple", to: "alice") }),
            ("adding to a new cart", { _ = try $0.add("apple", to: "carol") }),
            ("removing a unit", { _ = try $0.remove("apple", from: "alice") }),
            ("setting a quantity", { _ = try $0.setQuantity("pear", to: 3, in: "alice") }),
            ("deleting a line", { _ = try $0.deleteLine("plum", from: "alice") }),
            ("merging", { _ = try $0.merge(from: "carol", into: "alice") }),
            ("checking out", { _ = try $0.checkout("alice", idempotencyKey: "alice-1") }),
            ("clearing", { _ = try $0.clear("bob") }),
            ("adding a product", { _ = try $0.addProduct(Product(sku: "fig", name: "Fig", price: usd(40))) }),
            ("updating a product", { _ = try $0.updateProduct("pear", with: ProductUpdate(price: usd(89), stock: .tracked(9))) }),
            ("importing", { _ = try $0.importProducts(imported) }),
            ("updating settings", { _ = try $0.updateSettings(maxLineQuantity: 50) }),
            ("pruning", { _ = try $0.prune(olderThan: .distantFuture) }),
        ]
        try store.service.add("pear", to: "bob")
        for (name, change) in changes {
            var faults = 0
            while faults < 100 {
                let before = try store.state()
                let faulty = CartService(
                    repository: FaultInjectingRepository(base: store.repository, failOnWrite: faults + 1),
                    clock: store.service.clock)
                do {
                    try change(faulty)
                    break
                } catch is FaultInjectingRepository.InjectedFault {
                    faults += 1
                    #expect(try store.state() == before, "\(name), failing at write \(faults)")
                }
            }
            #expect((1..<100).contains(faults), "\(name) writes, and then succeeds")
        }
    }
}
