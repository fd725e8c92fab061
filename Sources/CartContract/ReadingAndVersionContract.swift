import CartCore
import Testing

/// Reading carts, their versions, and optimistic concurrency.
enum ReadingAndVersionContract {
    static let cases = ContractCase.suite(
        "Reading carts, versions and optimistic concurrency", key: "reading",
        [
            ("unwrittenCart", "a cart never written is empty at version 0", unwrittenCart),
            ("lineOrder", "lines come back in the order they were first added", lineOrder),
            ("totals", "totalItems sums quantities and subtotal is exact", totals),
            ("currentPrices", "a cart shows current names and prices", currentPrices),
            ("independentCarts", "carts are independent of each other", independentCarts),
            ("versionPerChange", "every change increases the version by exactly one", versionPerChange),
            ("refusedChangeKeepsVersion", "a refused change leaves the version alone", refusedChangeKeepsVersion),
            ("staleVersion", "a stale expectedVersion fails every mutation and changes nothing", staleVersion),
            ("currentVersion", "the current expectedVersion lets a change through", currentVersion),
            ("concurrentAdds", "concurrent adds of the same SKU never lose an update", concurrentAdds),
            ("changeAsValue", "a change applied as a value does what its method does", changeAsValue),
            ("changeAndReport", "a change's report is the cart as the change left it, problems included", changeAndReport),
            ("refusedChangeAndReport", "a change refused with its report changes nothing", refusedChangeAndReport),
            ("changeToken", "the change token moves with every committed change, which watchers rely on", changeToken),
        ])

    static func changeToken(_ backend: Backend) throws {
        let store = try Store(backend)
        let s = store.service
        let changes: [(String, () throws -> Void)] = [
            ("an add", { _ = try s.add("apple", to: "alice") }),
            ("a quantity set", { _ = try s.setQuantity("apple", to: 3, in: "alice") }),
            ("an add to another cart", { _ = try s.add("pear", to: "bob") }),
            ("a product repriced", { try s.updateProduct("pear", with: ProductUpdate(price: usd(120))) }),
            ("a checkout", { _ = try s.checkout("alice") }),
            ("a cart cleared", { _ = try s.clear("bob") }),
        ]
        var token = try store.repository.changeToken()
        for (change, make) in changes {
            try make()
            let next = try store.repository.changeToken()
            #expect(next != token, "the token stayed \(token) after \(change)")
            token = next
        }
    }

    static func unwrittenCart(_ backend: Backend) throws {
        let store = try Store(backend)
        let cart = try store.service.cart("nobody")
        #expect(cart.id == "nobody")
        #expect(cart.version == 0)
        #expect(cart.lines.isEmpty)
        #expect(cart.totalItems == 0)
        #expect(cart.subtotal == usd(0))
        #expect(try store.service.listCarts().isEmpty, "reading does not create a cart")
    }

    static func lineOrder(_ backend: Backend) throws {
        let store = try Store(backend)
        for sku in ["plum", "apple", "pear"] { try store.service.add(sku, to: "alice") }
        try store.service.add("apple", quantity: 4, to: "alice")
        try store.service.setQuantity("plum", to: 3, in: "alice")
        try store.service.remove("pear", from: "alice")
        try store.service.add("pear", to: "alice")
        #expect(try store.skus("alice") == ["plum", "apple", "pear"])
    }

    static func totals(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.add("apple", quantity: 3, to: "alice")
        try store.service.add("pear", quantity: 2, to: "alice")
        try store.service.add("plum", to: "alice")
        let cart = try store.service.cart("alice")
        #expect(cart.totalItems == 6)
        #expect(cart.lines.map(\.lineTotal) == [usd(375), usd(198), usd(250)])
        #expect(cart.subtotal == usd(823))
        #expect(cart.currency == .usd)
    }

    static func currentPrices(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.add("apple", quantity: 2, to: "alice")
        try store.service.updateProduct("apple", with: ProductUpdate(name: "Green apple", price: usd(140)))
        let line = try #require(try store.service.cart("alice").lines.first)
        #expect(line.name == "Green apple")
        #expect(line.unitPrice == usd(140))
        #expect(line.lineTotal == usd(280))
    }

    static func independentCarts(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.add("apple", to: "alice")
        try store.service.add("pear", quantity: 2, to: "bob")
        try store.service.clear("alice")
        #expect(try store.quantities("bob") == ["pear": 2])
        #expect(try store.service.cart("bob").version == 1)
    }

    static func versionPerChange(_ backend: Backend) throws {
        let store = try Store(backend)
        let s = store.service
        var versions = [
            try s.add("apple", to: "alice").version,
            try s.add("apple", to: "alice").version,
            try s.setQuantity("pear", to: 2, in: "alice").version,
            try s.remove("pear", from: "alice").version,
            try s.deleteLine("pear", from: "alice").version,
            try s.clear("alice").version,
            try s.add("plum", to: "alice").version,
        ]
        _ = try s.checkout("alice")
        versions.append(try s.cart("alice").version)
        #expect(versions == Array(1...8))
        #expect(try s.cart("alice").version == 8)
    }

    static func refusedChangeKeepsVersion(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.add("apple", to: "alice")
        _ = try? store.service.add("banana", to: "alice")
        _ = try? store.service.remove("pear", from: "alice")
        _ = try? store.service.add("apple", quantity: 99, to: "alice")
        #expect(try store.service.cart("alice").version == 1)
    }

    static func staleVersion(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.add("apple", quantity: 2, to: "alice")
        try store.service.add("pear", to: "alice")
        let before = try store.state()
        let conflict = CartError.versionConflict(cart: "alice", expected: 1, actual: 2)
        let s = store.service
        #expect(throws: conflict) { try s.add("apple", to: "alice", expectedVersion: 1) }
        #expect(throws: conflict) { try s.remove("apple", from: "alice", expectedVersion: 1) }
        #expect(throws: conflict) { try s.setQuantity("apple", to: 5, in: "alice", expectedVersion: 1) }
        #expect(throws: conflict) { try s.deleteLine("apple", from: "alice", expectedVersion: 1) }
        #expect(throws: conflict) { try s.clear("alice", expectedVersion: 1) }
        #expect(throws: conflict) { try s.checkout("alice", expectedVersion: 1) }
        #expect(throws: CartError.versionConflict(cart: "alice", expected: 3, actual: 2)) {
            try s.add("apple", to: "alice", expectedVersion: 3)
        }
        #expect(try store.state() == before)
    }

    static func currentVersion(_ backend: Backend) throws {
        let store = try Store(backend)
        #expect(try store.service.add("apple", to: "alice", expectedVersion: 0).version == 1)
        #expect(try store.service.add("apple", to: "alice", expectedVersion: 1).version == 2)
        #expect(throws: CartError.versionConflict(cart: "bob", expected: 1, actual: 0)) {
            try store.service.add("apple", to: "bob", expectedVersion: 1)
        }
        #expect(try store.service.checkout("alice", expectedVersion: 2).order.totalItems == 2)
    }

    static func concurrentAdds(_ backend: Backend) async throws {
        let store = try Store(backend)
        try store.service.updateSettings(maxLineQuantity: 10_000)
        let service = store.service
        // Eight jobs on BlockingThreads.shared, whose threads the system preempts mid-unit:
        // tasks on the cooperative pool, which has as few threads as the cores, seldom overlap.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try await BlockingThreads.shared.run {
                        for _ in 0..<150 { try service.add("apple", to: "alice") }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try store.quantities("alice") == ["apple": 1_200])
        #expect(try store.service.cart("alice").version == 1_200)
    }

    static func changeAsValue(_ backend: Backend) throws {
        let store = try Store(backend)
        let s = store.service
        let updates = [
            try s.apply(.add(sku: " apple ", quantity: 2), to: "alice"),
            try s.apply(.setQuantity(sku: "pear", quantity: 3), to: "alice", expectedVersion: 1),
            try s.apply(.remove(sku: "pear", quantity: 1), to: "alice"),
            try s.apply(.setQuantity(sku: "plum", quantity: 0), to: "alice"),
            try s.apply(.deleteLine(sku: "apple"), to: "alice"),
            try s.apply(.clear, to: "alice"),
            try s.apply(.clear, to: "alice"),
        ]
        #expect(
            updates == [
                CartUpdate(cartID: "alice", version: 1, sku: "apple", quantity: 2, previousQuantity: 0),
                CartUpdate(cartID: "alice", version: 2, sku: "pear", quantity: 3, previousQuantity: 0),
                CartUpdate(cartID: "alice", version: 3, sku: "pear", quantity: 2, previousQuantity: 3),
                CartUpdate(cartID: "alice", version: 3, sku: "plum", quantity: 0, previousQuantity: 0),
                CartUpdate(
                    cartID: "alice", version: 4, sku: "apple", quantity: 0, previousQuantity: 2, changed: true),
                CartUpdate(cartID: "alice", version: 5, sku: nil, quantity: 0, previousQuantity: 0, changed: true),
                CartUpdate(cartID: "alice", version: 5, sku: nil, quantity: 0, previousQuantity: 0, changed: false),
            ])
        try store.expectRefusal(.invalidQuantity(given: 0, range: 1...Int.max)) {
            try s.apply(.add(sku: "apple", quantity: 0), to: "alice")
        }
        try store.expectRefusal(.invalidQuantity(given: -1, range: 0...Int.max)) {
            try s.apply(.setQuantity(sku: "apple", quantity: -1), to: "alice")
        }
        try store.expectRefusal(.notInCart(sku: "apple", cart: "alice")) {
            try s.apply(.remove(sku: "apple", quantity: 1), to: "alice")
        }
    }

    static func changeAndReport(_ backend: Backend) throws {
        let store = try Store(backend)
        let s = store.service
        try s.add("pear", quantity: 3, to: "alice")
        try s.updateProduct("pear", with: ProductUpdate(stock: .tracked(2)))
        let (update, first) = try s.applyAndReport(.add(sku: "apple", quantity: 2), to: "alice")
        #expect(update == CartUpdate(cartID: "alice", version: 2, sku: "apple", quantity: 2, previousQuantity: 0))
        #expect(first.cart.version == 2)
        #expect(first.cart.lines.map(\.sku) == ["pear", "apple"])
        #expect(first.problems == [.insufficientStock(sku: "pear", quantity: 3, available: 2)])
        #expect(first == (try s.cartReport("alice")))
        let changes: [CartChange] = [
            .setQuantity(sku: "plum", quantity: 4), .remove(sku: "plum", quantity: 1), .deleteLine(sku: "apple"),
            .setQuantity(sku: "plum", quantity: 3), .clear, .clear,
        ]
        for change in changes {
            let (update, report) = try s.applyAndReport(change, to: "alice")
            #expect(report == (try s.cartReport("alice")), "\(change)")
            #expect(update.version == report.cart.version, "\(change)")
        }
        #expect(try s.cart("alice").version == 6)
    }

    static func refusedChangeAndReport(_ backend: Backend) throws {
        let store = try Store(backend)
        let s = store.service
        try s.add("apple", to: "alice")
        try store.expectRefusal(.versionConflict(cart: "alice", expected: 0, actual: 1)) {
            try s.applyAndReport(.add(sku: "apple", quantity: 1), to: "alice", expectedVersion: 0)
        }
        try store.expectRefusal(.unknownProduct("banana")) {
            try s.applyAndReport(.add(sku: "banana", quantity: 1), to: "alice")
        }
        try store.expectRefusal(.inactiveProduct("kiwi")) {
            try s.applyAndReport(.setQuantity(sku: "kiwi", quantity: 1), to: "alice")
        }
        try store.expectRefusal(.notInCart(sku: "pear", cart: "alice")) {
            try s.applyAndReport(.deleteLine(sku: "pear"), to: "alice")
        }
        try store.expectRefusal(.invalidCartID("", reason: "it is empty")) {
            try s.applyAndReport(.clear, to: "")
        }
    }
}
