import CartCore

extension SQLiteCartStorage {
    private static let selectLastOrderNumber = CachedSQL("SELECT coalesce(max(number), 0) FROM orders")

    func lastOrderNumber() throws -> OrderNumber {
        let last = try StoredDataError.checked(
            try database.scalar(Self.selectLastOrderNumber) ?? 0, in: 0...Int64.max, "the last order number")
        return OrderNumber(rawValue: Int64(last))
    }

    private static let countOrders = CachedSQL("SELECT count(*) FROM orders")

    func orderCount() throws -> Int {
        try count(Self.countOrders, of: "orders")
    }

    private static let insertOrderSQL = CachedSQL(
        """
        INSERT INTO orders (number, cart_id, placed_at, currency, total_items, total, idempotency_key)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """)
    /// The most order lines one INSERT statement takes; an order with more is inserted in
    /// several statements of up to this many lines.
    static let orderLinesPerInsert = 16

    /// `insertOrderLinesSQL[n - 1]` inserts `n` order lines, binding each line's
    /// order_number, position, sku, name, unit_price, quantity, line_total and placed_at in
    /// turn. Each is prepared the first time an order with that many lines is inserted.
    private static let insertOrderLinesSQL: [CachedSQL] = {
        // Each text extends the one before, rather than being joined from pieces: a short
        // `cart checkout` process builds them all once.
        var sql =
            "INSERT INTO order_lines (order_number, position, sku, name, unit_price, quantity, line_total, placed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
        var statements = [CachedSQL(sql)]
        for _ in 2...orderLinesPerInsert {
            sql += ", (?, ?, ?, ?, ?, ?, ?, ?)"
            statements.append(CachedSQL(sql))
        }
        return statements
    }()

    // The order's lines in one statement rather than one each: every statement run costs its
    // own start, cursor opening and reset.
    func insertOrder(_ order: Order) throws {
        let placedAt = UTCCalendar.milliseconds(order.placedAt)
        let insert = try database.cached(Self.insertOrderSQL)
        try insert.bind(order.number.rawValue, at: 1)
        try insert.bind(order.cartID, at: 2)
        try insert.bind(placedAt, at: 3)
        try insert.bind(order.currency.code, at: 4)
        try insert.bind(order.totalItems, at: 5)
        try insert.bind(order.total.minorUnits, at: 6)
        try insert.bind(order.idempotencyKey, at: 7)
        try insert.run()
        var start = order.lines.startIndex
        while start < order.lines.endIndex {
            let end = min(start + Self.orderLinesPerInsert, order.lines.endIndex)
            let statement = try database.cached(Self.insertOrderLinesSQL[end - start - 1])
            var parameter: Int32 = 1
            for index in start..<end {
                let line = order.lines[index]
                try statement.bind(order.number.rawValue, at: parameter)
                try statement.bind(index + 1, at: parameter + 1)
                try statement.bind(line.sku, at: parameter + 2)
                try statement.bind(line.name, at: parameter + 3)
                try statement.bind(line.unitPrice.minorUnits, at: parameter + 4)
                try statement.bind(line.quantity, at: parameter + 5)
                try statement.bind(line.lineTotal.minorUnits, at: parameter + 6)
                try statement.bind(placedAt, at: parameter + 7)
                parameter += 8
            }
            try statement.run()
            start = end
        }
    }

    private static let orderColumns =
        "SELECT o.number, o.cart_id, o.placed_at, o.currency, o.total_items, o.total, o.idempotency_key"

    private static let selectOrderByNumber = CachedSQL(orderColumns + " FROM orders AS o WHERE o.number = ?")

    func order(number: OrderNumber) throws -> Order? {
        let statement = try database.cached(Self.selectOrderByNumber)
        defer { statement.reset() }
        try statement.bind(number.rawValue, at: 1)
        return try statement.step() ? try order(from: statement) : nil
    }

    private static let selectOrderByKey = CachedSQL(orderColumns + " FROM orders AS o WHERE o.idempotency_key = ?")

    func order(idempotencyKey: String) throws -> Order? {
        let statement = try database.cached(Self.selectOrderByKey)
        defer { statement.reset() }
        try statement.bind(idempotencyKey, at: 1)
        return try statement.step() ? try order(from: statement) : nil
    }

    /// The statement `forEachOrder(matching:)` runs for `query`: a keyset page in
    /// (placed_at, number) order. With a SKU filter it reads from `order_lines_by_sku`, whose
    /// entries carry the order's time, so that case pages by index as well.
    static func orderQuerySQL(for query: OrderQuery) -> String {
        let filter = OrderFilter(query, includeCursor: true)
        let direction = query.sort == .newestFirst ? " DESC" : " ASC"
        return Self.orderColumns + filter.fromAndWhere
            + " ORDER BY " + filter.placedAt + direction + ", " + filter.number + direction
            + (query.limit != nil ? " LIMIT ?" : "")
    }

    private static let selectOrderLines = CachedSQL("SELECT sku, name, unit_price, quantity, line_total FROM order_lines WHERE order_number = ? ORDER BY position")

    private static let selectOrders = CachedSQL(orderColumns + " FROM orders AS o ORDER BY o.number")

    func forEachOrder(_ body: (Order) throws -> Void) throws {
        let statement = try database.cached(Self.selectOrders)
        defer { statement.reset() }
        while try statement.step() { try body(try order(from: statement)) }
    }

    func forEachOrder(matching query: OrderQuery, _ body: (Order) throws -> Void) throws {
        let statement = try database.cached(Self.orderQuerySQL(for: query))
        defer { statement.reset() }
        var index = try OrderFilter(query, includeCursor: true).bind(to: statement)
        if let limit = query.limit {
            // SQLite reads a negative LIMIT as none; a query's negative limit selects nothing.
            try statement.bind(max(limit, 0), at: index)
            index += 1
        }
        while try statement.step() { try body(try order(from: statement)) }
    }

    /// Reads the order at the statement's current row (columns of `orderColumns`) and its lines.
    private func order(from statement: Statement) throws -> Order {
        let number = Int64(try statement.int(at: 0, in: StoredRange.orderNumber, "an order number"))
        let order = "order \(number)"
        let currency = try settings().currency
        if let error = StoredDataError.otherCurrency(try statement.string(at: 3), ofOrder: number, store: currency) { throw error }
        let lines = try database.cached(Self.selectOrderLines)
        defer { lines.reset() }
        try lines.bind(number, at: 1)
        var orderLines: [OrderLine] = []
        while try lines.step() {
            let sku = try lines.string(at: 0)
            // The line's name is built only for an error message.
            func line() -> String { "'\(clean(sku))' in \(order)" }
            orderLines.append(
                OrderLine(
                    sku: sku, name: try lines.string(at: 1),
                    unitPrice: try money(lines, at: 2, in: StoredRange.price, "the unit price of \(line())", currency),
                    quantity: try lines.int(at: 3, in: StoredRange.lineQuantity, "the quantity of \(line())"),
                    lineTotal: try money(lines, at: 4, in: StoredRange.amount, "the total of \(line())", currency)))
        }
        return Order(
            number: OrderNumber(rawValue: number), cartID: try statement.string(at: 1),
            placedAt: try instant(from: statement, at: 2, "the time \(order) was placed"), currency: currency,
            totalItems: try statement.int(at: 4, in: StoredRange.orderItems, "the units of \(order)"),
            total: try money(statement, at: 5, in: StoredRange.amount, "the total of \(order)", currency),
            idempotencyKey: try statement.optionalString(at: 6), lines: orderLines)
    }

    /// The amount in `column`, which must lie in `range`.
    private func money(
        _ statement: Statement, at column: Int32, in range: ClosedRange<Int64>, _ what: @autoclosure () -> String,
        _ currency: Currency
    ) throws -> Money {
        Money(minorUnits: Int64(try statement.int(at: column, in: range, what())), currency: currency)
    }

    func orderStats(matching query: OrderQuery, groupedBy grouping: OrderStatsGrouping, utcOffset: UTCOffset) throws
        -> [OrderStatsRow]
    {
        let filter = OrderFilter(query, includeCursor: false)
        let sql: String
        var firstFilterParameter: Int32 = 1
        switch grouping {
        case .total:
            sql = "SELECT 0, count(*), coalesce(sum(o.total_items), 0), coalesce(sum(o.total), 0)" + filter.fromAndWhere
        case .day, .month:
            // Whole days since the epoch, as UTCCalendar.day(milliseconds:offset:) counts them:
            // the UTC day floored (also before 1970), then one back or on where the offset
            // (parameter 1) crosses midnight; no step can overflow, whatever placed_at holds.
            sql = "SELECT o.placed_at / 86400000 - (o.placed_at % 86400000 < 0) "
                + "+ ((o.placed_at % 86400000 + 86400000) % 86400000 + ? + 86400000) / 86400000 - 1 AS day, "
                + "count(*), sum(o.total_items), sum(o.total)" + filter.fromAndWhere + " GROUP BY day ORDER BY day"
            firstFilterParameter = 2
        case .product:
            sql = "SELECT l.sku, count(*), sum(l.quantity), sum(l.line_total) FROM order_lines AS l "
                + "WHERE l.order_number IN (SELECT o.number" + filter.fromAndWhere + ") "
                + "GROUP BY l.sku ORDER BY sum(l.line_total) DESC, l.sku"
        }
        let statement = try database.cached(sql)
        defer { statement.reset() }
        if grouping == .day || grouping == .month { try statement.bind(utcOffset.milliseconds, at: 1) }
        _ = try filter.bind(to: statement, from: firstFilterParameter)
        let currency = try settings().currency
        var rows: [OrderStatsRow] = []
        while try Self.stepSummingMoney(statement) {
            let key: String
            switch grouping {
            case .total: key = "total"
            case .day, .month: key = try OrderStatsRow.key(day: statement.int64(at: 0), groupedBy: grouping)
            case .product: key = try statement.string(at: 0)
            }
            let row = OrderStatsRow(
                key: key, orders: try statement.int(at: 1, in: 0...Int64.max, "the number of orders of \(key)"),
                items: try statement.int(at: 2, in: 0...Int64.max, "the units sold in \(key)"),
                revenue: Money(
                    minorUnits: Int64(try statement.int(at: 3, in: Int64.min...Int64.max, "the revenue of \(key)")), currency: currency))
            try OrderStatsRow.append(row, to: &rows)
        }
        return rows
    }
}

extension SQLiteCartStorage {
    /// Steps a statement whose `sum()` may overflow; SQLite reports that as a plain error,
    /// which is the domain's `amountOverflow`, as on every backend.
    static func stepSummingMoney(_ statement: Statement) throws -> Bool {
        do {
            return try statement.step()
        } catch let error as DatabaseError where error.message == "integer overflow" {
            throw CartError.amountOverflow
        }
    }
}
