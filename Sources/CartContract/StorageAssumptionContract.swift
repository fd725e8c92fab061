import CartCore
import Testing

/// Each storage write states what it may assume; `CartService` only makes calls that meet
/// those assumptions. A call that breaks one (another client changed the data behind the
/// service's back, or a caller that is not the service) is refused with an error that reports
/// its category, and changes nothing: the backend never stores something else instead.
enum StorageAssumptionContract {
    static let cases = ContractCase.suite(
        "Storage writes refuse broken assumptions", key: "assumptions",
        [
            ("insertExistingProduct", "inserting a product whose SKU is stored is refused and changes nothing", insertExistingProduct),
            ("insertProductsRepeating", "inserting a product whose SKU is stored is refused, and insertAbsentProducts skips it", insertProductsRepeating),
            ("updateMissingProduct", "updating a product, or its stock, that is not stored is refused and stores nothing", updateMissingProduct),
            ("deleteProductHeldOrMissing", "deleting a product that is not stored, or that a cart line holds, is refused and changes nothing", deleteProductHeldOrMissing),
            ("insertLineTaken", "inserting a line the cart has, or one of an unknown product, is refused and changes nothing", insertLineTaken),
            ("missingLine", "updating or deleting a line the cart does not have is refused and changes nothing", missingLine),
            ("nonPositiveQuantity", "a line quantity below 1 is refused on insert and update", nonPositiveQuantity),
            ("headerVersion", "saving a cart header over another version than the stored one is refused and changes nothing", headerVersion),
            ("lineWithoutHeader", "a unit that adds a line to a cart and saves no header for it is refused as a whole", lineWithoutHeader),
            ("deleteMissingCart", "deleting a cart that is not stored is refused", deleteMissingCart),
            ("orderTaken", "inserting an order whose number or idempotency key is taken is refused and changes nothing", orderTaken),
            ("ordersRefused", "a batch of orders with a taken number or key, or a key twice, is refused, and leaves nothing once its unit throws", ordersRefused),
            ("secretTaken", "inserting a store secret when the store has one is refused and changes nothing", secretTaken),
        ])

    /// Expects `write` to throw an error that reports a category and to change nothing, seen
    /// from inside its unit and after the unit, which catches the error, commits.
    private static func expectRefused(
        _ store: Store, _ what: Comment, sourceLocation: SourceLocation = #_sourceLocation,
        _ write: (any CartStorageWriter) throws -> Void
    ) throws {
        let before = try store.state()
        try store.repository.write { storage in
            let error = #expect(throws: (any Error).self, what, sourceLocation: sourceLocation) { try write(storage) }
            if let error {
                #expect(error is any CategorizedError, "\(error) reports an ErrorCategory", sourceLocation: sourceLocation)
            }
            let inUnit = try StoreState(storage)
            #expect(inUnit == before, "\(what): nothing changed in the unit", sourceLocation: sourceLocation)
        }
        #expect(try store.state() == before, "\(what): nothing was committed", sourceLocation: sourceLocation)
    }

    static func insertExistingProduct(_ backend: Backend) throws {
        let store = try Store.busy(backend)
        try expectRefused(store, "an active product") { try $0.insertProduct(Product(sku: "apple", name: "Other", price: usd(1))) }
        try expectRefused(store, "an inactive product") { try $0.insertProduct(Catalog.kiwi) }
    }

    static func insertProductsRepeating(_ backend: Backend) throws {
        let store = try Store.busy(backend)
        let new = (0..<150).map { Product(sku: "n\($0)", name: "New \($0)", price: usd(100)) }
        // A stored SKU in the first batch and in the tail: skipped, the stored product kept.
        for (index, product) in [(10, Product(sku: "pear", name: "Other", price: usd(5))), (140, Catalog.apple)] {
            var products = new
            products[index] = product
            let pear = try store.service.product("pear")
            let before = try store.state()
            struct Undo: Error {}
            #expect(throws: Undo.self) {
                try store.repository.write { storage in
                    let inserted = try storage.insertAbsentProducts(products)
                    #expect(inserted == products.indices.map { $0 != index }, "'\(product.sku)' at \(index)")
                    #expect(try storage.product(sku: "pear") == pear)
                    #expect(try storage.productCount() == 4 + 149)
                    throw Undo()
                }
            }
            #expect(try store.state() == before)
        }
        try expectRefused(store, "inserting one stored SKU") { try $0.insertProduct(Catalog.apple) }
    }

    static func updateMissingProduct(_ backend: Backend) throws {
        let store = try Store.busy(backend)
        let ghost = Product(sku: "ghost", name: "Ghost", price: usd(1), stock: 3)
        try expectRefused(store, "a whole product") { try $0.updateProduct(ghost) }
        try expectRefused(store, "its stock") { try $0.updateProductStock(ghost) }
    }

    static func deleteProductHeldOrMissing(_ backend: Backend) throws {
        let store = try Store.busy(backend)
        try expectRefused(store, "a product that is not stored") { try $0.deleteProduct(sku: "ghost") }
        try expectRefused(store, "a product in alice's cart") { try $0.deleteProduct(sku: "apple") }
    }

    static func insertLineTaken(_ backend: Backend) throws {
        let store = try Store.busy(backend)
        try expectRefused(store, "a line the cart has") {
            try $0.insertCartLine(cartID: "alice", sku: "apple", quantity: 5, position: 3)
        }
        try expectRefused(store, "a line of an unknown product") {
            try $0.insertCartLine(cartID: "alice", sku: "ghost", quantity: 1, position: 3)
        }
    }

    static func missingLine(_ backend: Backend) throws {
        let store = try Store.busy(backend)
        try expectRefused(store, "updating a line the cart lacks") {
            try $0.updateCartLine(cartID: "alice", sku: "plum", quantity: 2)
        }
        try expectRefused(store, "updating a line of a cart never written") {
            try $0.updateCartLine(cartID: "nobody", sku: "apple", quantity: 2)
        }
        try expectRefused(store, "deleting a line the cart lacks") { try $0.deleteCartLine(cartID: "alice", sku: "plum") }
        try expectRefused(store, "deleting a line of an emptied cart") { try $0.deleteCartLine(cartID: "bob", sku: "plum") }
    }

    static func nonPositiveQuantity(_ backend: Backend) throws {
        let store = try Store.busy(backend)
        for quantity in [0, -1] {
            try expectRefused(store, "inserting \(quantity)") {
                try $0.insertCartLine(cartID: "alice", sku: "plum", quantity: quantity, position: 3)
            }
            try expectRefused(store, "updating to \(quantity)") {
                try $0.updateCartLine(cartID: "alice", sku: "apple", quantity: quantity)
            }
        }
    }

    static func headerVersion(_ backend: Backend) throws {
        let store = try Store.busy(backend)
        let now = store.clock.now
        try expectRefused(store, "inserting over a stored header") {
            try $0.saveCartHeader(CartHeader(id: "alice", version: 1, updatedAt: now, lineCount: 2, nextLinePosition: 3), previousVersion: nil)
        }
        for previous in [1, 3, 0] {
            try expectRefused(store, "replacing version 2 as if it were \(previous)") {
                try $0.saveCartHeader(CartHeader(id: "alice", version: previous + 1, updatedAt: now, lineCount: 2, nextLinePosition: 3), previousVersion: previous)
            }
        }
        try expectRefused(store, "replacing a header that is not stored") {
            try $0.saveCartHeader(CartHeader(id: "carol", version: 2, updatedAt: now, lineCount: 0, nextLinePosition: 1), previousVersion: 1)
        }
    }

    static func lineWithoutHeader(_ backend: Backend) throws {
        let store = try Store.busy(backend)
        let before = try store.state()
        let error = #expect(throws: (any Error).self) {
            try store.repository.write { storage in
                try storage.insertCartLine(cartID: "carol", sku: "apple", quantity: 1, position: 1)
            }
        }
        if let error { #expect(error is any CategorizedError, "\(error) reports an ErrorCategory") }
        #expect(try store.state() == before)
        #expect(try store.repository.read { try $0.cartLines(cartID: "carol") }.isEmpty)
        // The same line with its header is stored.
        try store.repository.write { storage in
            try storage.insertCartLine(cartID: "carol", sku: "apple", quantity: 1, position: 1)
            try storage.saveCartHeader(CartHeader(id: "carol", version: 1, updatedAt: store.clock.now, lineCount: 1, nextLinePosition: 2), previousVersion: nil)
        }
        #expect(try store.quantities("carol") == ["apple": 1])
    }

    static func deleteMissingCart(_ backend: Backend) throws {
        let store = try Store.busy(backend)
        try expectRefused(store, "a cart never written") { try $0.deleteCart(id: "nobody") }
    }

    static func orderTaken(_ backend: Backend) throws {
        let store = try Store.busy(backend)
        try expectRefused(store, "a taken number") { try $0.insertOrder(store.aliceOrder(1, key: nil)) }
        try expectRefused(store, "a taken key") { try $0.insertOrder(store.aliceOrder(2, key: "bob-1")) }
    }

    static func ordersRefused(_ backend: Backend) throws {
        let store = try Store.busy(backend)
        let order = { (number: Int64, key: String?) in store.aliceOrder(OrderNumber(rawValue: number), key: key) }
        let batches: [(Comment, [Order])] = [
            ("a taken number", [order(1, nil), order(2, nil)]),
            ("a stored order's key", [order(2, nil), order(3, "bob-1")]),
            ("a stored order's key after 600 orders", (2...601).map { order($0, nil) } + [order(602, "bob-1")]),
            ("a key twice", [order(2, "twice"), order(3, nil), order(4, "twice")]),
        ]
        struct Undo: Error {}
        for (what, batch) in batches {
            let before = try store.state()
            var error: (any Error)?
            do {
                try store.repository.write { storage in
                    error = #expect(throws: (any Error).self, what) { try storage.insertOrders(batch) }
                    throw Undo()
                }
            } catch is Undo {}
            #expect(error is any CategorizedError, "\(what): \(String(describing: error)) reports an ErrorCategory")
            #expect(try store.state() == before, "\(what): nothing was committed")
        }
    }

    static func secretTaken(_ backend: Backend) throws {
        let store = try Store.busy(backend)
        _ = try store.service.storeSecret()
        try expectRefused(store, "a second secret") { try $0.insertStoreSecret(StoreSecret.random()) }
    }
}
