import CartCore
import Testing

/// Adding units of a product to a cart, and the rules a line must meet.
enum AddingContract {
    static let cases = ContractCase.suite(
        "Adding to a cart", key: "adding",
        [
            ("addCreatesLine", "adding a product creates a line with that quantity", addCreatesLine),
            ("addDefaultsToOne", "adding defaults to one unit", addDefaultsToOne),
            ("addQuantityBounds", "adding needs at least one unit and at most the per-line cap", addQuantityBounds),
            ("addUnknown", "adding an unknown product is refused", addUnknown),
            ("addInactive", "adding an inactive product is refused", addInactive),
            ("addMergesSameSKU", "adding the same SKU again merges into its one line", addMergesSameSKU),
            ("addPerLineCap", "a line may reach the per-line cap but not pass it", addPerLineCap),
            ("addTrackedStock", "a line may not hold more than the tracked stock", addTrackedStock),
            ("stockIsCheckedPerCart", "stock in other carts does not limit this cart", stockIsCheckedPerCart),
            ("untrackedStock", "a product without tracked stock is limited only by the cap", untrackedStock),
            ("zeroStock", "out of stock products cannot be added", zeroStock),
            ("linesCap", "a new line beyond the lines cap is refused; existing lines still grow", linesCap),
            ("largestCartTotals", "the most expensive possible line and cart total exactly, without overflow", largestCartTotals),
        ])

    static func addCreatesLine(_ backend: Backend) throws {
        let store = try Store(backend)
        let update = try store.service.add("apple", quantity: 3, to: "alice")
        #expect(update == CartUpdate(cartID: "alice", version: 1, sku: "apple", quantity: 3, previousQuantity: 0))
        let cart = try store.service.cart("alice")
        #expect(cart.lines == [try CartLine(sku: "apple", name: "Apple", quantity: 3, unitPrice: usd(125))])
        #expect(try store.service.add("apple", quantity: 2, to: "alice").previousQuantity == 3)
    }

    static func addDefaultsToOne(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.add("apple", to: "alice")
        #expect(try store.quantities("alice") == ["apple": 1])
    }

    static func addQuantityBounds(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.add("apple", to: "alice")
        let before = try store.state()
        for quantity in [0, -1, Int.min] {
            #expect(throws: CartError.invalidQuantity(given: quantity, range: 1...Int.max)) {
                try store.service.add("apple", quantity: quantity, to: "alice")
            }
        }
        // Above the store's cap is a rule of the store, counted with what the line holds.
        for (quantity, requested) in [(99, 100), (100, 101), (Int.max, Int.max)] {
            #expect(throws: CartError.lineQuantityCapExceeded(sku: "apple", requested: requested, cap: 99)) {
                try store.service.add("apple", quantity: quantity, to: "alice")
            }
        }
        #expect(try store.state() == before)
    }

    static func addUnknown(_ backend: Backend) throws {
        let store = try Store(backend)
        #expect(throws: CartError.unknownProduct("banana")) { try store.service.add("banana", to: "alice") }
        #expect(try store.service.listCarts().isEmpty)
    }

    static func addInactive(_ backend: Backend) throws {
        let store = try Store(backend)
        #expect(throws: CartError.inactiveProduct("kiwi")) { try store.service.add("kiwi", to: "alice") }
        #expect(try store.service.listCarts().isEmpty)
    }

    static func addMergesSameSKU(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.add("apple", quantity: 2, to: "alice")
        try store.service.add("pear", to: "alice")
        let update = try store.service.add(" apple ", quantity: 3, to: "alice")
        #expect(update.quantity == 5)
        #expect(update.sku == "apple")
        #expect(try store.skus("alice") == ["apple", "pear"])
        #expect(try store.quantities("alice") == ["apple": 5, "pear": 1])
    }

    static func addPerLineCap(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.add("apple", quantity: 60, to: "alice")
        #expect(throws: CartError.lineQuantityCapExceeded(sku: "apple", requested: 100, cap: 99)) {
            try store.service.add("apple", quantity: 40, to: "alice")
        }
        #expect(try store.quantities("alice") == ["apple": 60])
        try store.service.add("apple", quantity: 39, to: "alice")
        #expect(try store.quantities("alice") == ["apple": 99])
    }

    static func addTrackedStock(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.add("pear", quantity: 3, to: "alice")
        #expect(throws: CartError.insufficientStock(sku: "pear", requested: 6, available: 5)) {
            try store.service.add("pear", quantity: 3, to: "alice")
        }
        try store.service.add("pear", quantity: 2, to: "alice")
        #expect(try store.quantities("alice") == ["pear": 5])
        #expect(try store.stock("pear") == 5, "adding to a cart reserves nothing")
    }

    static func stockIsCheckedPerCart(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.add("pear", quantity: 5, to: "alice")
        try store.service.add("pear", quantity: 5, to: "bob")
        #expect(try store.quantities("bob") == ["pear": 5])
    }

    static func untrackedStock(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.add("apple", quantity: 99, to: "alice")
        #expect(try store.quantities("alice") == ["apple": 99])
    }

    static func zeroStock(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.updateProduct("pear", with: ProductUpdate(stock: .tracked(0)))
        #expect(throws: CartError.insufficientStock(sku: "pear", requested: 1, available: 0)) {
            try store.service.add("pear", to: "alice")
        }
    }

    static func linesCap(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.updateSettings(maxLinesPerCart: 2)
        try store.service.add("apple", to: "alice")
        try store.service.add("pear", to: "alice")
        #expect(throws: CartError.lineCountCapExceeded(cart: "alice", cap: 2)) {
            try store.service.add("plum", to: "alice")
        }
        try store.service.add("apple", to: "alice")
        #expect(try store.quantities("alice") == ["apple": 2, "pear": 1])
        try store.service.add("plum", to: "bob")
    }

    static func largestCartTotals(_ backend: Backend) throws {
        let store = try Store(backend)
        let maxQuantity = StoreSettings.maxLineQuantityRange.upperBound
        try store.service.updateSettings(maxLineQuantity: maxQuantity)
        for sku in ["gold", "platinum"] {
            try store.service.addProduct(Product(sku: sku, name: sku, price: usd(Product.maximumPriceMinorUnits)))
            try store.service.add(sku, quantity: maxQuantity, to: "alice")
        }
        let cart = try store.service.cart("alice")
        #expect(cart.subtotal == usd(2 * Int64(maxQuantity) * Product.maximumPriceMinorUnits))
        #expect(try store.service.checkout("alice").order.total == cart.subtotal)
    }
}
