import CartCore
import Testing

/// Removing units, setting quantities, deleting lines and clearing carts.
enum RemovingContract {
    static let cases = ContractCase.suite(
        "Removing, setting quantities, deleting lines, clearing", key: "removing",
        [
            ("removeDecrements", "removing takes units off the line", removeDecrements),
            ("removeLastUnit", "removing the last unit deletes the line", removeLastUnit),
            ("removeMoreThanHeld", "removing more than the line holds deletes the line and says how many it held", removeMoreThanHeld),
            ("removeNotInCart", "removing a SKU that is not in the cart is refused", removeNotInCart),
            ("removeQuantityBounds", "removing needs at least one unit", removeQuantityBounds),
            ("setReplaces", "setting a quantity replaces the line's quantity", setReplaces),
            ("setZeroRemoves", "setting a quantity of 0 removes the line", setZeroRemoves),
            ("setChecksLikeAdd", "setting a quantity checks what adding checks", setChecksLikeAdd),
            ("setAfterLoweredCap", "a lowered per-line cap applies to a higher quantity; a lower one is taken", setAfterLoweredCap),
            ("setLowersUnsellable", "a line of a product no longer for sale, or above its stock, can be set lower", setLowersUnsellable),
            ("deleteLine", "deleting a line removes it whatever its quantity", deleteLine),
            ("clear", "clearing empties the cart and moves its version; clearing an empty cart changes nothing", clear),
            ("setSameQuantity", "setting the quantity a line already has changes nothing", setSameQuantity),
            ("readdGoesLast", "a line removed and added again goes to the end", readdGoesLast),
        ])

    static func removeDecrements(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.add("apple", quantity: 5, to: "alice")
        let update = try store.service.remove("apple", quantity: 2, from: "alice")
        #expect(update.quantity == 3)
        try store.service.remove("apple", from: "alice")
        #expect(try store.quantities("alice") == ["apple": 2])
    }

    static func removeLastUnit(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.add("apple", to: "alice")
        try store.service.add("pear", to: "alice")
        let update = try store.service.remove("apple", from: "alice")
        #expect(update.quantity == 0)
        #expect(try store.skus("alice") == ["pear"])
    }

    static func removeMoreThanHeld(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.add("apple", quantity: 2, to: "alice")
        let update = try store.service.remove("apple", quantity: 50, from: "alice")
        #expect(update == CartUpdate(cartID: "alice", version: 2, sku: "apple", quantity: 0, previousQuantity: 2))
        #expect(update.removed == 2, "the update says that only the 2 the line held were removed")
        #expect(try store.service.cart("alice").isEmpty)
        try store.service.add("pear", quantity: 2, to: "alice")
        try store.service.remove("pear", quantity: Int.max, from: "alice")
        #expect(try store.service.cart("alice").isEmpty)
    }

    static func removeNotInCart(_ backend: Backend) throws {
        let store = try Store(backend)
        #expect(throws: CartError.notInCart(sku: "apple", cart: "alice")) {
            try store.service.remove("apple", from: "alice")
        }
        try store.service.add("pear", to: "alice")
        try store.expectRefusal(CartError.notInCart(sku: "apple", cart: "alice")) {
            try store.service.remove("apple", from: "alice")
        }
    }

    static func removeQuantityBounds(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.add("apple", to: "alice")
        for quantity in [0, -1] {
            #expect(throws: CartError.invalidQuantity(given: quantity, range: 1...Int.max)) {
                try store.service.remove("apple", quantity: quantity, from: "alice")
            }
        }
        #expect(try store.quantities("alice") == ["apple": 1])
    }

    static func setReplaces(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.add("apple", quantity: 5, to: "alice")
        try store.service.add("pear", to: "alice")
        try store.service.setQuantity("apple", to: 2, in: "alice")
        try store.service.setQuantity("plum", to: 4, in: "alice")
        #expect(try store.skus("alice") == ["apple", "pear", "plum"])
        #expect(try store.quantities("alice") == ["apple": 2, "pear": 1, "plum": 4])
    }

    static func setZeroRemoves(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.add("apple", quantity: 5, to: "alice")
        let update = try store.service.setQuantity("apple", to: 0, in: "alice")
        #expect(update.quantity == 0)
        #expect(try store.service.cart("alice").isEmpty)
        // Setting 0 again, or on a line never there, changes nothing: no version, no cart made.
        let before = try store.state()
        let again = try store.service.setQuantity("apple", to: 0, in: "alice")
        #expect(again.quantity == 0 && again.previousQuantity == 0 && again.version == update.version)
        let never = try store.service.setQuantity("apple", to: 0, in: "bob")
        #expect(never.version == 0)
        #expect(try store.state() == before)
    }

    static func setChecksLikeAdd(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.updateSettings(maxLinesPerCart: 2)
        try store.service.add("apple", quantity: 2, to: "alice")
        try store.service.add("pear", quantity: 2, to: "alice")
        let before = try store.state()
        #expect(throws: CartError.invalidQuantity(given: -1, range: 0...Int.max)) {
            try store.service.setQuantity("apple", to: -1, in: "alice")
        }
        #expect(throws: CartError.lineQuantityCapExceeded(sku: "apple", requested: 100, cap: 99)) {
            try store.service.setQuantity("apple", to: 100, in: "alice")
        }
        #expect(throws: CartError.insufficientStock(sku: "pear", requested: 6, available: 5)) {
            try store.service.setQuantity("pear", to: 6, in: "alice")
        }
        #expect(throws: CartError.unknownProduct("banana")) {
            try store.service.setQuantity("banana", to: 1, in: "alice")
        }
        #expect(throws: CartError.inactiveProduct("kiwi")) {
            try store.service.setQuantity("kiwi", to: 1, in: "alice")
        }
        #expect(throws: CartError.lineCountCapExceeded(cart: "alice", cap: 2)) {
            try store.service.setQuantity("plum", to: 1, in: "alice")
        }
        #expect(try store.state() == before)
    }

    static func setAfterLoweredCap(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.add("apple", quantity: 10, to: "alice")
        try store.service.updateSettings(maxLineQuantity: 5)
        #expect(throws: CartError.lineQuantityCapExceeded(sku: "apple", requested: 11, cap: 5)) {
            try store.service.setQuantity("apple", to: 11, in: "alice")
        }
        // A line above the cap comes down step by step; going up again is checked.
        try store.service.setQuantity("apple", to: 9, in: "alice")
        #expect(throws: CartError.lineQuantityCapExceeded(sku: "apple", requested: 10, cap: 5)) {
            try store.service.setQuantity("apple", to: 10, in: "alice")
        }
        try store.service.setQuantity("apple", to: 5, in: "alice")
        #expect(try store.quantities("alice") == ["apple": 5])
    }

    static func setLowersUnsellable(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.add("pear", quantity: 5, to: "alice")
        try store.service.add("apple", quantity: 3, to: "alice")
        try store.service.updateProduct("pear", with: ProductUpdate(stock: .tracked(2)))
        try store.service.updateProduct("apple", with: ProductUpdate(isActive: false))
        try store.service.setQuantity("pear", to: 4, in: "alice")
        try store.service.setQuantity("apple", to: 1, in: "alice")
        #expect(try store.quantities("alice") == ["pear": 4, "apple": 1])
        #expect(throws: CartError.inactiveProduct("apple")) {
            try store.service.setQuantity("apple", to: 2, in: "alice")
        }
    }

    static func deleteLine(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.add("apple", quantity: 7, to: "alice")
        try store.service.add("pear", to: "alice")
        let update = try store.service.deleteLine("apple", from: "alice")
        #expect(update == CartUpdate(cartID: "alice", version: 3, sku: "apple", quantity: 0, previousQuantity: 7))
        #expect(try store.skus("alice") == ["pear"])
        #expect(throws: CartError.notInCart(sku: "apple", cart: "alice")) {
            try store.service.deleteLine("apple", from: "alice")
        }
    }

    static func clear(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.add("apple", quantity: 7, to: "alice")
        try store.service.add("pear", to: "alice")
        try store.service.add("pear", to: "bob")
        let cleared = try store.service.clear("alice")
        #expect(cleared.version == 3 && cleared.changed)
        #expect(try store.service.cart("alice").isEmpty)
        let before = try store.state()
        let again = try store.service.clear("alice")
        #expect(again.version == 3 && !again.changed)
        #expect(try store.service.clear("never-written") == CartUpdate(
            cartID: "never-written", version: 0, sku: nil, quantity: 0, previousQuantity: 0, changed: false))
        #expect(try store.state() == before, "no version moved and no cart was created")
        #expect(throws: CartError.versionConflict(cart: "alice", expected: 2, actual: 3)) {
            try store.service.clear("alice", expectedVersion: 2)
        }
        #expect(try store.quantities("bob") == ["pear": 1])
    }

    static func setSameQuantity(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.setQuantity("apple", to: 5, in: "alice")
        let before = try store.state()
        let same = try store.service.setQuantity("apple", to: 5, in: "alice")
        #expect(same.version == 1 && !same.changed)
        let absent = try store.service.setQuantity("pear", to: 0, in: "alice")
        #expect(absent.version == 1 && !absent.changed, "a line the cart lacks set to 0 changes nothing")
        #expect(try store.state() == before)
        #expect(try store.service.setQuantity("apple", to: 4, in: "alice").changed)
    }

    static func readdGoesLast(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.add("apple", to: "alice")
        try store.service.add("pear", to: "alice")
        try store.service.remove("apple", from: "alice")
        try store.service.add("apple", to: "alice")
        #expect(try store.skus("alice") == ["pear", "apple"])
    }
}
