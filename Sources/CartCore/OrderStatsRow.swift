/// One row of order statistics.
public struct OrderStatsRow: Hashable, Sendable {
    /// The group: a day, a month, a SKU, or `total`.
    public let key: String
    /// Orders in the group (for products: orders containing the SKU, each once per line of it,
    /// which differs only for an order that another client wrote with two lines of one SKU).
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

extension OrderStatsRow {
    /// The statistics of `orders`, stated once for every backend: one row per day or month
    /// (oldest first; the days beginning at midnight at `utcOffset`), per SKU (highest revenue
    /// first, ties by SKU), or one `total` row, which is there, with zeros, also when there are
    /// no orders.
    ///
    /// - Throws: `CartError.amountOverflow` when a sum does not fit in 64 bits.
    public static func rows(
        for orders: [Order], groupedBy grouping: OrderStatsGrouping, utcOffset: UTCOffset = .utc, currency: Currency
    ) throws(CartError) -> [OrderStatsRow] {
        // `day` orders the days and months by time, as the backends' queries do; their keys
        // would not (year 10000, which a day at a positive offset can reach, sorts first).
        var groups: [String: (day: Int64, orders: Int, items: Int, revenue: Money)] = [:]
        func count(_ key: String, day: Int64 = 0, items: Int, revenue: Money) throws(CartError) {
            var group = groups[key] ?? (day, 0, 0, .zero(currency))
            let (sum, overflow) = group.items.addingReportingOverflow(items)
            guard !overflow else { throw .amountOverflow }
            group.orders += 1
            group.items = sum
            group.revenue = try group.revenue.adding(revenue)
            groups[key] = group
        }
        for order in orders {
            let day = UTCCalendar.day(milliseconds: UTCCalendar.milliseconds(order.placedAt), offset: utcOffset)
            switch grouping {
            case .total: try count("total", items: order.totalItems, revenue: order.total)
            case .day: try count(UTCCalendar.dayKey(day: day), day: day, items: order.totalItems, revenue: order.total)
            case .month:
                try count(UTCCalendar.monthKey(day: day), day: day, items: order.totalItems, revenue: order.total)
            case .product:
                for line in order.lines { try count(line.sku, items: line.quantity, revenue: line.lineTotal) }
            }
        }
        if grouping == .total, groups.isEmpty { groups["total"] = (0, 0, 0, .zero(currency)) }
        let sorted =
            grouping == .product
            ? groups.sorted { ($0.value.revenue.minorUnits, $1.key) > ($1.value.revenue.minorUnits, $0.key) }
            : groups.sorted { $0.value.day < $1.value.day }
        return sorted.map { OrderStatsRow(key: $0.key, orders: $0.value.orders, items: $0.value.items, revenue: $0.value.revenue) }
    }
}

extension OrderStatsRow {
    /// The key of a row that a backend's query grouped by `day` (whole days since the epoch at
    /// the query's offset): the day's, or its month's when grouping by month.
    ///
    /// - Throws: `StoredDataError` for a day outside the years 0000 to 9999: an order placed
    ///   at a time another client stored.
    public static func key(day: Int64, groupedBy grouping: OrderStatsGrouping) throws(StoredDataError) -> String {
        guard StoredRange.day.contains(day) else {
            throw StoredDataError("an order's placed_at lies outside the years 0000 to 9999")
        }
        return grouping == .month ? UTCCalendar.monthKey(day: day) : UTCCalendar.dayKey(day: day)
    }

    /// Appends `row` to `rows`, or adds it into the last row when that has the same key: the
    /// days of one month, which a query grouping by day returns one after another.
    ///
    /// - Throws: `CartError.amountOverflow` when a sum does not fit in 64 bits.
    public static func append(_ row: OrderStatsRow, to rows: inout [OrderStatsRow]) throws(CartError) {
        guard let last = rows.last, last.key == row.key else { return rows.append(row) }
        let (orders, ordersOverflow) = last.orders.addingReportingOverflow(row.orders)
        let (items, itemsOverflow) = last.items.addingReportingOverflow(row.items)
        guard !ordersOverflow, !itemsOverflow else { throw .amountOverflow }
        rows[rows.count - 1] = OrderStatsRow(key: row.key, orders: orders, items: items, revenue: try last.revenue.adding(row.revenue))
    }
}
