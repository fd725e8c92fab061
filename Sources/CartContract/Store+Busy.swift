import CartCore

extension Store {
    /// A store where alice holds 2 apples and 1 pear (version 2), and bob placed order 1
    /// (a plum, key `bob-1`), which emptied his cart (version 2).
    static func busy(_ backend: Backend) throws -> Store {
        let store = try Store(backend)
        try store.placeOrder("bob", [("plum", 1)], key: "bob-1")
        try store.service.add("apple", quantity: 2, to: "alice")
        try store.service.add("pear", to: "alice")
        return store
    }

    /// An order of alice's 2 apples, placed now, with this number and key, as storage takes it.
    func aliceOrder(_ number: OrderNumber, key: String?) -> Order {
        let line = OrderLine(sku: "apple", name: "Apple", unitPrice: usd(125), quantity: 2, lineTotal: usd(250))
        return Order(
            number: number, cartID: "alice", placedAt: clock.now, currency: .usd, totalItems: 2, total: usd(250),
            idempotencyKey: key, lines: [line])
    }
}
