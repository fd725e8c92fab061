import CartCore
import Testing

/// Checkout: orders, their numbers, stock, idempotency keys.
enum CheckoutContract {
    static let cases = ContractCase.suite(
        "Checkout", key: "checkout",
        [
            ("emptyCart", "checkout of an empty cart is refused and consumes no number", emptyCart),
            ("placesOrder", "checkout places an order with number, cart, clock time, items and total", placesOrder),
            ("orderLines", "order lines copy SKU, name, unit price, quantity and line total in cart order", orderLines),
            ("effects", "checkout decrements tracked stock, clears the cart and moves its version", effects),
            ("sequentialNumbers", "order numbers run 1, 2, 3 across carts", sequentialNumbers),
            ("inactiveLine", "a line whose product went inactive fails checkout, named, changing nothing", inactiveLine),
            ("overLoweredCap", "a line over a lowered per-line cap fails checkout, named, changing nothing", overLoweredCap),
            ("stockDropped", "a line with more units than the stock left fails checkout, named, changing nothing", stockDropped),
            ("overLoweredLinesCap", "a cart with more lines than a lowered lines cap fails checkout, changing nothing", overLoweredLinesCap),
            ("namesEveryProblem", "a refused checkout names every problem of the cart, as its report lists them", namesEveryProblem),
            ("damagedProductName", "a product name another client stored that no order can keep is a problem of its line until renamed", damagedProductName),
            ("reportWithoutProblems", "a cart that can be checked out reports no problem, and a fixed problem leaves its report", reportWithoutProblems),
            ("failsOnThirdLine", "a checkout failing on the third line leaves cart, stock and order numbers as they were", failsOnThirdLine),
            ("ordersAreFrozen", "an order keeps its lines and total when the catalog changes later", ordersAreFrozen),
            ("idempotentReplay", "the same key for the same cart returns the same order, flagged as a replay", idempotentReplay),
            ("threeRetries", "an idempotent checkout retried three times yields one order", threeRetries),
            ("concurrentRetries", "concurrent retries with one key place one order", concurrentRetries),
            ("keyOfAnotherCart", "a key already used by another cart is refused and changes nothing", keyOfAnotherCart),
            ("expectedTotal", "a checkout at an expected total places the order only at that total", expectedTotal),
        ])

    /// A store where alice holds 3 apples, 2 pears and 4 plums (in that order).
    private static func filledStore(_ backend: Backend) throws -> Store {
        let store = try Store(backend)
        try store.service.add("apple", quantity: 3, to: "alice")
        try store.service.add("pear", quantity: 2, to: "alice")
        try store.service.add("plum", quantity: 4, to: "alice")
        return store
    }

    static func emptyCart(_ backend: Backend) throws {
        let store = try Store(backend)
        #expect(throws: CartError.emptyCart("alice")) { try store.service.checkout("alice") }
        try store.service.add("apple", to: "alice")
        try store.service.clear("alice")
        try store.expectRefusal(CartError.emptyCart("alice")) { try store.service.checkout("alice", idempotencyKey: "k") }
        #expect(try store.placeOrder("bob", [("apple", 1)]).number == 1)
    }

    static func placesOrder(_ backend: Backend) throws {
        let store = try filledStore(backend)
        store.clock.advance(seconds: 3_600)
        let result = try store.service.checkout("alice")
        let order = result.order
        #expect(!result.replayed)
        #expect(order.number == 1)
        #expect(order.cartID == "alice")
        #expect(order.placedAt == store.clock.now)
        #expect(order.currency == .usd)
        #expect(order.totalItems == 9)
        #expect(order.total == usd(375 + 198 + 1000))
        #expect(order.idempotencyKey == nil)
        #expect(try store.service.order(1) == order, "the stored order is the one returned")
    }

    static func orderLines(_ backend: Backend) throws {
        let store = try filledStore(backend)
        let order = try store.service.checkout("alice").order
        #expect(
            order.lines == [
                OrderLine(sku: "apple", name: "Apple", unitPrice: usd(125), quantity: 3, lineTotal: usd(375)),
                OrderLine(sku: "pear", name: "Pear", unitPrice: usd(99), quantity: 2, lineTotal: usd(198)),
                OrderLine(sku: "plum", name: "Plum", unitPrice: usd(250), quantity: 4, lineTotal: usd(1000)),
            ])
    }

    static func effects(_ backend: Backend) throws {
        let store = try filledStore(backend)
        try store.service.add("pear", to: "bob")
        _ = try store.service.checkout("alice")
        #expect(try store.stock("pear") == 3)
        #expect(try store.stock("plum") == 6)
        #expect(try store.stock("apple") == nil, "untracked stock stays untracked")
        let cart = try store.service.cart("alice")
        #expect(cart.isEmpty)
        #expect(cart.version == 4)
        #expect(try store.quantities("bob") == ["pear": 1], "other carts are untouched")
    }

    static func sequentialNumbers(_ backend: Backend) throws {
        let store = try Store(backend)
        let numbers = try ["alice", "bob", "alice", "carol"].map { try store.placeOrder($0, [("apple", 1)]).number }
        #expect(numbers == [1, 2, 3, 4])
    }

    static func inactiveLine(_ backend: Backend) throws {
        let store = try filledStore(backend)
        try store.service.updateProduct("pear", with: ProductUpdate(isActive: false))
        try store.expectRefusal(CartError.cannotCheckOut(cart: "alice", problems: [.inactiveProduct("pear")])) {
            try store.service.checkout("alice")
        }
    }

    static func overLoweredCap(_ backend: Backend) throws {
        let store = try filledStore(backend)
        try store.service.updateSettings(maxLineQuantity: 2)
        let problems: [CartProblem] = [
            .lineQuantityCap(sku: "apple", quantity: 3, cap: 2), .lineQuantityCap(sku: "plum", quantity: 4, cap: 2),
        ]
        try store.expectRefusal(CartError.cannotCheckOut(cart: "alice", problems: problems)) {
            try store.service.checkout("alice")
        }
    }

    static func stockDropped(_ backend: Backend) throws {
        let store = try filledStore(backend)
        try store.service.updateProduct("pear", with: ProductUpdate(stock: .tracked(1)))
        try store.expectRefusal(
            CartError.cannotCheckOut(cart: "alice", problems: [.insufficientStock(sku: "pear", quantity: 2, available: 1)])
        ) {
            try store.service.checkout("alice")
        }
    }

    static func overLoweredLinesCap(_ backend: Backend) throws {
        let store = try filledStore(backend)
        try store.service.updateSettings(maxLinesPerCart: 2)
        try store.expectRefusal(CartError.cannotCheckOut(cart: "alice", problems: [.lineCountCap(lines: 3, cap: 2)])) {
            try store.service.checkout("alice")
        }
        try store.service.deleteLine("pear", from: "alice")
        #expect(try store.service.checkout("alice").order.lines.map(\.sku) == ["apple", "plum"])
    }

    static func namesEveryProblem(_ backend: Backend) throws {
        let store = try filledStore(backend)
        try store.service.addProduct(Product(sku: "fig", name: "Fig", price: usd(40)))
        try store.service.add("fig", to: "alice")
        try store.service.updateProduct("apple", with: ProductUpdate(isActive: false))
        try store.service.updateProduct("plum", with: ProductUpdate(stock: .tracked(1)))
        try store.service.updateSettings(maxLineQuantity: 3, maxLinesPerCart: 3)
        let problems: [CartProblem] = [
            .inactiveProduct("apple"), .lineQuantityCap(sku: "plum", quantity: 4, cap: 3),
            .insufficientStock(sku: "plum", quantity: 4, available: 1), .lineCountCap(lines: 4, cap: 3),
        ]
        #expect(try store.service.cartReport("alice").problems == problems)
        let error = CartError.cannotCheckOut(cart: "alice", problems: problems)
        try store.expectRefusal(error) { try store.service.checkout("alice") }
        #expect(
            error.description == "Cart 'alice' cannot be checked out: 'apple' is not for sale; "
                + "'plum': 4 in the cart, at most 3 per line; 'plum': 4 in the cart, 1 in stock; 4 lines in the cart, "
                + "at most 3 per cart.")
    }

    static func damagedProductName(_ backend: Backend) throws {
        let store = try filledStore(backend)
        let pear = try store.service.product("pear")
        var damaged = pear
        damaged.name = "Pe\u{0}ar"
        do {
            try store.repository.write { try $0.updateProduct(damaged) }
        } catch {
            // A backend whose own checks refuse such a name cannot hold one.
            #expect(try store.service.product("pear") == pear, "a refused name is not stored")
            return
        }
        let problem = CartProblem.damagedProduct(sku: "pear", name: damaged.name, reason: "it contains control characters")
        #expect(
            problem.message
                == "'pear': the store holds the name 'Pe\\0ar' for it, which no product can have (it contains control characters); "
                + "rename the product.")
        #expect(try store.service.cartReport("alice").problems == [problem])
        try store.expectRefusal(CartError.cannotCheckOut(cart: "alice", problems: [problem])) {
            try store.service.checkout("alice")
        }
        try store.service.updateProduct("pear", with: ProductUpdate(name: "Pear"))
        #expect(try store.service.checkout("alice").order.lines.map(\.name) == ["Apple", "Pear", "Plum"])
    }

    static func reportWithoutProblems(_ backend: Backend) throws {
        let store = try filledStore(backend)
        let report = try store.service.cartReport("alice")
        #expect(report.problems.isEmpty)
        #expect(report.canCheckOut)
        #expect(report.cart == (try store.service.cart("alice")))
        let never = try store.service.cartReport("nobody")
        #expect(never.problems.isEmpty && !never.canCheckOut && never.cart.version == 0)
        try store.service.updateProduct("pear", with: ProductUpdate(stock: .tracked(1)))
        #expect(try store.service.cartReport("alice").problems(of: "pear") == [.insufficientStock(sku: "pear", quantity: 2, available: 1)])
        try store.service.setQuantity("pear", to: 1, in: "alice")
        #expect(try store.service.cartReport("alice").problems.isEmpty)
        #expect(try store.service.checkout("alice").order.totalItems == 8)
    }

    static func failsOnThirdLine(_ backend: Backend) throws {
        let store = try filledStore(backend)
        try store.placeOrder("bob", [("plum", 1)])
        try store.service.updateProduct("plum", with: ProductUpdate(stock: .tracked(3)))
        let before = try store.state()
        let cartBefore = try store.service.cart("alice")
        #expect(
            throws: CartError.cannotCheckOut(cart: "alice", problems: [.insufficientStock(sku: "plum", quantity: 4, available: 3)])
        ) {
            try store.service.checkout("alice", idempotencyKey: "alice-1")
        }
        #expect(try store.state() == before)
        #expect(try store.service.cart("alice") == cartBefore)
        #expect(try store.stock("pear") == 5)
        #expect(try store.stock("plum") == 3)
        #expect(throws: CartError.orderNotFound(2)) { try store.service.order(2) }

        try store.service.updateProduct("plum", with: ProductUpdate(stock: .tracked(4)))
        let retry = try store.service.checkout("alice", idempotencyKey: "alice-1")
        #expect(retry.order.number == 2, "the failed checkout consumed no number")
        #expect(!retry.replayed, "the failed checkout did not record its key")
    }

    static func ordersAreFrozen(_ backend: Backend) throws {
        let store = try filledStore(backend)
        let placed = try store.service.checkout("alice").order
        try store.service.updateProduct("apple", with: ProductUpdate(name: "Renamed", price: usd(9_999)))
        try store.service.updateProduct("pear", with: ProductUpdate(price: usd(1), stock: .untracked, isActive: false))
        #expect(try store.service.order(1) == placed)
        #expect(try store.service.orders(matching: OrderQuery()).orders == [placed])
        #expect(try store.service.orderStats(groupedBy: .total).first?.revenue == placed.total)
    }

    static func idempotentReplay(_ backend: Backend) throws {
        let store = try filledStore(backend)
        let first = try store.service.checkout("alice", idempotencyKey: "click-1")
        try store.service.add("apple", to: "alice")
        store.clock.advance(seconds: 60)
        let before = try store.state()
        let again = try store.service.checkout("alice", idempotencyKey: "click-1")
        #expect(again.replayed)
        #expect(again.order == first.order)
        #expect(try store.state() == before, "a replay changes nothing, not even the refilled cart")
    }

    static func threeRetries(_ backend: Backend) throws {
        let store = try filledStore(backend)
        let results = try (0..<4).map { _ in try store.service.checkout("alice", idempotencyKey: "k-42") }
        #expect(results.map(\.replayed) == [false, true, true, true])
        #expect(Set(results.map(\.order)).count == 1)
        #expect(try store.state().orders.count == 1)
        #expect(try store.stock("pear") == 3, "stock is decremented once")
        #expect(try store.service.cart("alice").version == 4, "the cart changed once")
    }

    static func concurrentRetries(_ backend: Backend) async throws {
        let store = try filledStore(backend)
        let service = store.service
        let results = try await withThrowingTaskGroup(of: CheckoutResult.self) { group in
            for _ in 0..<8 { group.addTask { try service.checkout("alice", idempotencyKey: "dbl-click") } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.filter { !$0.replayed }.count == 1)
        #expect(Set(results.map(\.order.number)) == [1])
        #expect(try store.state().orders.count == 1)
        #expect(try store.stock("plum") == 6)
    }

    static func expectedTotal(_ backend: Backend) throws {
        let store = try filledStore(backend)
        let shown = try store.service.cart("alice").subtotal
        try store.service.updateProduct("pear", with: ProductUpdate(price: usd(2_000)))
        let now = try store.service.cart("alice").subtotal
        try store.expectRefusal(CartError.totalChanged(cart: "alice", expected: shown, actual: now)) {
            try store.service.checkout("alice", idempotencyKey: "shown", expectedTotal: shown)
        }
        let placed = try store.service.checkout("alice", idempotencyKey: "shown", expectedTotal: now)
        #expect(!placed.replayed && placed.order.total == now)
        // A replay answers with the order its key placed, whatever total it names.
        let replay = try store.service.checkout("alice", idempotencyKey: "shown", expectedTotal: shown)
        #expect(replay.replayed && replay.order == placed.order)
    }

    static func keyOfAnotherCart(_ backend: Backend) throws {
        let store = try filledStore(backend)
        _ = try store.service.checkout("alice", idempotencyKey: "shared")
        try store.service.add("apple", to: "bob")
        try store.expectRefusal(CartError.idempotencyKeyReused(key: "shared", cart: "alice")) {
            try store.service.checkout("bob", idempotencyKey: "shared")
        }
    }
}
