/// How order statistics are grouped.
public enum OrderStatsGrouping: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// One row for the whole period.
    case total
    /// One row per UTC day, `YYYY-MM-DD`, oldest first.
    case day
    /// One row per UTC month, `YYYY-MM`, oldest first.
    case month
    /// One row per SKU, highest revenue first.
    case product

    /// `by day`, `by product`, `in total`.
    public var description: String {
        self == .total ? "in total" : "by \(rawValue)"
    }
}
