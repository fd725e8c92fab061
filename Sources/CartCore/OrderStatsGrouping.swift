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
