/// How much a store holds, for status displays.
public struct StoreCounts: Hashable, Sendable, Codable {
    /// Products, active or not.
    public let products: Int
    /// Stored carts, empty or not.
    public let carts: Int
    /// Placed orders.
    public let orders: Int

    /// Creates counts.
    public init(products: Int, carts: Int, orders: Int) {
        self.products = products
        self.carts = carts
        self.orders = orders
    }
}
