import CartCore
import Testing

/// A cart line whose quantity another client stored outside the range the service works with
/// (`StoredRange.lineQuantity`): setting or deleting that line replaces it, a change that
/// counts from its units is refused, the list of carts still shows its cart, and the cart's
/// report shows the other lines and names this one as a problem. A backend
/// whose own checks refuse such a quantity cannot hold one, and passes these cases at once.
enum DamagedLineContract {
    static let cases = ContractCase.suite(
        "A line quantity another client stored out of range", key: "damagedLine",
        [
            ("setReplaces", "setting the line replaces it, checked as adding checks; adding and removing refuse and change nothing", setReplaces),
            ("deleteRemoves", "deleting the line, or setting it to 0, removes it and counts the cart's lines right", deleteRemoves),
            ("listed", "the list of carts shows the line's cart, its units unknown and the value named", listed),
            ("reported", "the cart's report leaves the line out and names it; checkout refuses; a second such line does not block mending the first", reported),
        ])

    /// The quantity stored: one above every cap the settings can hold.
    static let outOfRange = Int(StoredRange.lineQuantity.upperBound) + 1

    /// A store whose cart 'alice' holds 5 apples and a pear, and cart 'bob' a pear, with alice's
    /// apple line then set to `outOfRange` through the storage, as another client would; `nil`
    /// when the backend refuses to store that quantity.
    private static func damagedStore(_ backend: Backend) throws -> Store? {
        let store = try Store(backend)
        try store.service.add("apple", quantity: 5, to: "alice")
        try store.service.add("pear", to: "alice")
        try store.service.add("pear", to: "bob")
        do {
            try store.repository.write { try $0.updateCartLine(cartID: "alice", sku: "apple", quantity: outOfRange) }
        } catch {
            #expect(try store.service.listCarts().map(\.totalItems) == [6, 1], "a refused quantity is not stored")
            return nil
        }
        return store
    }

    /// The line's context as stored and the list of carts, to compare before and after a
    /// refused change (`Store.state()` reads the cart's lines, which refuse the quantity).
    private static func snapshot(_ store: Store) throws -> [String] {
        let context = try store.repository.read { try $0.lineContext(cartID: "alice", sku: "apple") }
        return ["\(context)", "\(try store.service.listCarts())"]
    }

    static func setReplaces(_ backend: Backend) throws {
        guard let store = try damagedStore(backend) else { return }
        let context = try store.repository.read { try $0.lineContext(cartID: "alice", sku: "apple") }
        #expect(context.quantity == outOfRange, "the context holds the quantity as stored")
        let refused = StoredDataError("the quantity of 'apple' in cart 'alice' is \(outOfRange), above \(outOfRange - 1)")
        let before = try snapshot(store)
        #expect(throws: refused) { try store.service.add("apple", to: "alice") }
        #expect(throws: refused) { try store.service.remove("apple", from: "alice") }
        // The new quantity is checked as a line's is when added: the stored one is no base.
        #expect(throws: CartError.lineQuantityCapExceeded(sku: "apple", requested: 100, cap: 99)) {
            try store.service.setQuantity("apple", to: 100, in: "alice")
        }
        #expect(try snapshot(store) == before, "refused changes change nothing")
        let update = try store.service.setQuantity("apple", to: 3, in: "alice", expectedVersion: 2)
        #expect(
            update == CartUpdate(
                cartID: "alice", version: 3, sku: "apple", quantity: 3, previousQuantity: outOfRange, changed: true))
        #expect(try store.quantities("alice") == ["apple": 3, "pear": 1])
        #expect(try store.skus("alice") == ["apple", "pear"], "the line keeps its place")
        try store.service.add("apple", to: "alice")
        #expect(try store.quantities("alice") == ["apple": 4, "pear": 1])
    }

    static func deleteRemoves(_ backend: Backend) throws {
        guard let store = try damagedStore(backend) else { return }
        let update = try store.service.deleteLine("apple", from: "alice")
        #expect(update == CartUpdate(cartID: "alice", version: 3, sku: "apple", quantity: 0, previousQuantity: outOfRange))
        #expect(try store.quantities("alice") == ["pear": 1])
        // Set to 0, the line goes too, and the cart's line count follows both.
        try store.service.add("apple", to: "alice")
        try store.repository.write { try $0.updateCartLine(cartID: "alice", sku: "apple", quantity: outOfRange) }
        let zero = try store.service.setQuantity("apple", to: 0, in: "alice")
        #expect(zero.changed && zero.quantity == 0 && zero.previousQuantity == outOfRange && zero.version == 5)
        #expect(try store.quantities("alice") == ["pear": 1])
        #expect(try store.service.cartReport("alice").problems.isEmpty)
        let header = try store.repository.read { try $0.cartHeader(id: "alice") }
        #expect(header?.lineCount == 1)
    }

    static func listed(_ backend: Backend) throws {
        guard let store = try damagedStore(backend) else { return }
        let carts = try store.service.listCarts()
        #expect(carts.map(\.id) == ["alice", "bob"])
        #expect(carts.map(\.lineCount) == [2, 1])
        #expect(carts.map(\.totalItems) == [nil, 1])
        #expect(carts.map(\.problem) == ["a line's quantity is \(outOfRange), above \(outOfRange - 1)", nil])
        #expect(try store.service.carts(matching: CartQuery(nonEmpty: true)).carts == carts)
        try CodableContract.expectRoundTrip(carts)
        try store.service.setQuantity("apple", to: 2, in: "alice")
        #expect(try store.service.listCarts().first?.totalItems == 3)
        #expect(try store.service.listCarts().first?.problem == nil)
    }

    static func reported(_ backend: Backend) throws {
        guard let store = try damagedStore(backend) else { return }
        let damaged = CartProblem.damagedLine(sku: "apple", quantity: outOfRange)
        let report = try store.service.cartReport("alice")
        #expect(report.cart.lines.map(\.sku) == ["pear"] && report.cart.version == 2)
        #expect(report.problems == [damaged])
        let before = try snapshot(store)
        #expect(throws: CartError.cannotCheckOut(cart: "alice", problems: [damaged])) {
            try store.service.checkout("alice")
        }
        #expect(try snapshot(store) == before, "a refused checkout changes nothing")
        // With a second such line, each is still set or deleted on its own.
        try store.repository.write { try $0.updateCartLine(cartID: "alice", sku: "pear", quantity: outOfRange) }
        let (_, afterSet) = try store.service.applyAndReport(.setQuantity(sku: "apple", quantity: 2), to: "alice")
        #expect(afterSet.cart.lines.map(\.sku) == ["apple"])
        #expect(afterSet.problems == [.damagedLine(sku: "pear", quantity: outOfRange)])
        let (_, afterDelete) = try store.service.applyAndReport(.deleteLine(sku: "pear"), to: "alice")
        #expect(afterDelete.problems.isEmpty && afterDelete.cart.totalItems == 2)
    }
}
