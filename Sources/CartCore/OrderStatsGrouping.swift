/// How order statistics are grouped.
public enum OrderStatsGrouping: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// One row for the whole period.
    case total
    /// One row per day, `YYYY-MM-DD`, oldest first; days begin at midnight UTC unless a
    /// `UTCOffset` says otherwise.
    case day
    /// One row per month, `YYYY-MM`, oldest first, of the days `day` counts.
    case month
    /// One row per SKU, highest revenue first.
    case product

    /// `by day`, `by product`, `in total`.
    public var description: String {
        self == .total ? "in total" : "by \(rawValue)"
    }
}
