/// Order statistics with what they are grouped by and in:
/// `{"by":"day","currency":"USD","rows":[ORDER_STATS_ROW…],"utcOffset":"+02:00"}`, the shape
/// `cart orders stats --json` and `GET /v1/orders/stats` write. `currency` is there even when
/// no row is; `utcOffset`, where the days begin, only when grouped by day or month and known.
public struct OrderStatsReport: Codable, Hashable, Sendable {
    /// `total`, `day`, `month` or `product`.
    public var by: String
    /// The store currency, in which every revenue is.
    public var currency: Currency
    /// One row per group: by `total` exactly one (zeros when no order matches), by day or month
    /// oldest first, by product the highest revenue first (then by SKU).
    public var rows: [OrderStatsRow]
    /// `+02:00`; nil when not grouped by days.
    public var utcOffset: String?

    /// Creates a report; the offset is kept only for a grouping by day or month.
    public init(grouping: OrderStatsGrouping, currency: Currency, rows: [OrderStatsRow], utcOffset: UTCOffset? = nil) {
        by = grouping.rawValue
        self.currency = currency
        self.rows = rows
        self.utcOffset = grouping == .day || grouping == .month ? utcOffset?.description : nil
    }
}
