import CartCore

/// Everything a store holds, comparable as a whole, read through the basic reads only so that
/// it does not depend on the fast paths the contract checks.
struct StoreState: Equatable {
    var settings: StoreSettings
    var products: [Product]
    var carts: [CartSummary]
    var lines: [String: [StoredCartLine]]
    var orders: [Order]
    var lastOrderNumber: OrderNumber
    var secret: StoreSecret?

    /// Reads the state through `storage`, inside the unit it belongs to.
    init(_ storage: any CartStorageReader) throws {
        settings = try storage.settings()
        products = try storage.products()
        carts = try storage.carts()
        var lines: [String: [StoredCartLine]] = [:]
        for cart in carts { lines[cart.id] = try storage.cartLines(cartID: cart.id) }
        self.lines = lines
        var orders: [Order] = []
        try storage.forEachOrder { orders.append($0) }
        self.orders = orders
        lastOrderNumber = try storage.lastOrderNumber()
        secret = try storage.storeSecret()
    }
}
