/// One row of order statistics.
public struct OrderStatsRow: Hashable, Sendable {
    /// The group: a day, a month, a SKU, or `total`.
    public let key: String
    /// Orders in the group (for products: orders containing the SKU).
    public let orders: Int
    /// Units sold in the group.
    public let items: Int
    /// Revenue in the group.
    public let revenue: Money

    /// Creates a row.
    public init(key: String, orders: Int, items: Int, revenue: Money) {
        self.key = key
        self.orders = orders
        self.items = items
        self.revenue = revenue
    }
}
