import CartCore

extension SQLiteCartStorage {
    func lastOrderNumber() throws -> OrderNumber {
        OrderNumber(rawValue: try database.scalar("SELECT coalesce(max(number), 0) FROM orders") ?? 0)
    }

    func orderCount() throws -> Int {
        Int(try database.scalar("SELECT count(*) FROM orders") ?? 0)
    }

    func insertOrder(_ order: Order) throws {
        let insert = try database.cached(
            """
            INSERT INTO orders (number, cart_id, placed_at, currency, total_items, total, idempotency_key)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        try insert.bind(order.number.rawValue, at: 1)
        try insert.bind(order.cartID, at: 2)
        try insert.bind(UTCCalendar.milliseconds(order.placedAt), at: 3)
        try insert.bind(order.currency.code, at: 4)
        try insert.bind(order.totalItems, at: 5)
        try insert.bind(order.total.minorUnits, at: 6)
        try insert.bind(order.idempotencyKey, at: 7)
        try insert.run()
        let line = try database.cached(
            """
            INSERT INTO order_lines (order_number, position, sku, name, unit_price, quantity, line_total)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        for (index, orderLine) in order.lines.enumerated() {
            line.reset()
            try line.bind(order.number.rawValue, at: 1)
            try line.bind(index + 1, at: 2)
            try line.bind(orderLine.sku, at: 3)
            try line.bind(orderLine.name, at: 4)
            try line.bind(orderLine.unitPrice.minorUnits, at: 5)
            try line.bind(orderLine.quantity, at: 6)
            try line.bind(orderLine.lineTotal.minorUnits, at: 7)
            try line.run()
        }
    }

    private static let orderColumns =
        "SELECT o.number, o.cart_id, o.placed_at, o.currency, o.total_items, o.total, o.idempotency_key FROM orders AS o"

    func order(number: OrderNumber) throws -> Order? {
        let statement = try database.cached(Self.orderColumns + " WHERE o.number = ?")
        defer { statement.reset() }
        try statement.bind(number.rawValue, at: 1)
        return try statement.step() ? try order(from: statement) : nil
    }

    func order(idempotencyKey: String) throws -> Order? {
        let statement = try database.cached(Self.orderColumns + " WHERE o.idempotency_key = ?")
        defer { statement.reset() }
        try statement.bind(idempotencyKey, at: 1)
        return try statement.step() ? try order(from: statement) : nil
    }

    func forEachOrder(matching query: OrderQuery, _ body: (Order) throws -> Void) throws {
        var filter = OrderFilter(query, includeCursor: true)
        filter.sql = Self.orderColumns + filter.whereClause
            + (query.sort == .newestFirst ? " ORDER BY o.number DESC" : " ORDER BY o.number ASC")
        if query.limit != nil { filter.sql += " LIMIT ?" }
        let statement = try database.cached(filter.sql)
        defer { statement.reset() }
        var index = try filter.bind(to: statement)
        if let limit = query.limit {
            try statement.bind(limit, at: index)
            index += 1
        }
        while try statement.step() { try body(try order(from: statement)) }
    }

    /// Reads the order at the statement's current row (columns of `orderColumns`) and its lines.
    private func order(from statement: Statement) throws -> Order {
        let number = statement.int64(at: 0)
        let currency = try settings().currency
        let lines = try database.cached(
            "SELECT sku, name, unit_price, quantity, line_total FROM order_lines WHERE order_number = ? ORDER BY position")
        defer { lines.reset() }
        try lines.bind(number, at: 1)
        var orderLines: [OrderLine] = []
        while try lines.step() {
            orderLines.append(
                OrderLine(
                    sku: lines.string(at: 0), name: lines.string(at: 1),
                    unitPrice: Money(minorUnits: lines.int64(at: 2), currency: currency), quantity: lines.int(at: 3),
                    lineTotal: Money(minorUnits: lines.int64(at: 4), currency: currency)))
        }
        return Order(
            number: OrderNumber(rawValue: number), cartID: statement.string(at: 1),
            placedAt: UTCCalendar.date(milliseconds: statement.int64(at: 2)), currency: currency,
            totalItems: statement.int(at: 4), total: Money(minorUnits: statement.int64(at: 5), currency: currency),
            idempotencyKey: statement.optionalString(at: 6), lines: orderLines)
    }

    func orderStats(matching query: OrderQuery, groupedBy grouping: OrderStatsGrouping) throws -> [OrderStatsRow] {
        let filter = OrderFilter(query, includeCursor: false)
        let sql: String
        switch grouping {
        case .total:
            sql = "SELECT 0, count(*), coalesce(sum(o.total_items), 0), coalesce(sum(o.total), 0) FROM orders AS o"
                + filter.whereClause
        case .day, .month:
            // Whole UTC days since the epoch, floored also for instants before 1970.
            sql = "SELECT (o.placed_at - ((o.placed_at % 86400000) + 86400000) % 86400000) / 86400000 AS day, "
                + "count(*), sum(o.total_items), sum(o.total) FROM orders AS o" + filter.whereClause
                + " GROUP BY day ORDER BY day"
        case .product:
            sql = "SELECT l.sku, count(*), sum(l.quantity), sum(l.line_total) FROM order_lines AS l "
                + "WHERE l.order_number IN (SELECT o.number FROM orders AS o" + filter.whereClause + ") "
                + "GROUP BY l.sku ORDER BY sum(l.line_total) DESC, l.sku"
        }
        let statement = try database.cached(sql)
        defer { statement.reset() }
        _ = try filter.bind(to: statement)
        let currency = try settings().currency
        var rows: [OrderStatsRow] = []
        while try statement.step() {
            let key: String
            switch grouping {
            case .total: key = "total"
            case .day: key = UTCCalendar.dayKey(milliseconds: statement.int64(at: 0) * 86_400_000)
            case .month: key = UTCCalendar.monthKey(milliseconds: statement.int64(at: 0) * 86_400_000)
            case .product: key = statement.string(at: 0)
            }
            let row = OrderStatsRow(
                key: key, orders: statement.int(at: 1), items: statement.int(at: 2),
                revenue: Money(minorUnits: statement.int64(at: 3), currency: currency))
            if grouping == .month, let last = rows.last, last.key == key {
                rows[rows.count - 1] = OrderStatsRow(
                    key: key, orders: last.orders + row.orders, items: last.items + row.items,
                    revenue: try last.revenue.adding(row.revenue))
            } else {
                rows.append(row)
            }
        }
        return rows
    }
}

/// The WHERE clause for an `OrderQuery`'s filters, built from fixed fragments, with the
/// query's values bound as parameters in the same order.
struct OrderFilter {
    var sql = ""
    private(set) var whereClause = ""
    private let query: OrderQuery
    private let includeCursor: Bool

    init(_ query: OrderQuery, includeCursor: Bool) {
        self.query = query
        self.includeCursor = includeCursor
        var conditions: [String] = []
        if query.cartID != nil { conditions.append("o.cart_id = ?") }
        if query.placedOnOrAfter != nil { conditions.append("o.placed_at >= ?") }
        if query.placedBefore != nil { conditions.append("o.placed_at < ?") }
        if query.sku != nil {
            conditions.append("o.number IN (SELECT order_number FROM order_lines WHERE sku = ?)")
        }
        if includeCursor, query.after != nil {
            conditions.append(query.sort == .newestFirst ? "o.number < ?" : "o.number > ?")
        }
        whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
    }

    /// Binds the filter's values from parameter 1 on; returns the next free parameter index.
    func bind(to statement: Statement) throws -> Int32 {
        var index: Int32 = 1
        if let cartID = query.cartID {
            try statement.bind(cartID, at: index)
            index += 1
        }
        if let since = query.placedOnOrAfter {
            try statement.bind(UTCCalendar.milliseconds(since), at: index)
            index += 1
        }
        if let before = query.placedBefore {
            try statement.bind(UTCCalendar.milliseconds(before), at: index)
            index += 1
        }
        if let sku = query.sku {
            try statement.bind(sku, at: index)
            index += 1
        }
        if includeCursor, let after = query.after {
            try statement.bind(after.rawValue, at: index)
            index += 1
        }
        return index
    }
}
