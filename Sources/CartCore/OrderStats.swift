/// How order statistics are grouped.
public enum OrderStatsGrouping: String, Hashable, Sendable, CaseIterable {
    /// One row for the whole period.
    case total
    /// One row per UTC day, `YYYY-MM-DD`, oldest first.
    case day
    /// One row per UTC month, `YYYY-MM`, oldest first.
    case month
    /// One row per SKU, highest revenue first.
    case product
}

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
