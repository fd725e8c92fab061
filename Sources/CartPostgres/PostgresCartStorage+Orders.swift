import CartCore

/// Orders: each read returns whole orders, their lines joined in the same statement, a page
/// or a batch at a time.
extension PostgresCartStorage {
    private static let selectLastOrderNumber: PostgresSQL = "SELECT last_number FROM order_numbers WHERE id = 1"
    // The lock that makes order numbers gapless: a checkout holds it from reading the last
    // number until it commits the next.
    static let lockLastOrderNumber = PostgresSQL(selectLastOrderNumber.text + " FOR UPDATE")
    // Checkouts take the counter's row for update, so while a write unit shares it, no order
    // is added.
    private static let lockOrders = PostgresStatement(PostgresSQL(selectLastOrderNumber.text + " FOR SHARE"))

    func lastOrderNumber() throws -> OrderNumber {
        guard let row = try rows(locks ? Self.lockLastOrderNumber : Self.selectLastOrderNumber).first else {
            throw PostgresStoreError.missingRow("order counter row (order_numbers)")
        }
        return OrderNumber(rawValue: Int64(try row.int(0, in: 0...Int64.max, "the last order number")))
    }

    private static let countOrders: PostgresSQL = "SELECT count(*) FROM orders"

    func orderCount() throws -> Int {
        try rows(Self.countOrders, lock: Self.lockOrders).first?.int(0) ?? 0
    }

    // One statement: the counter moves to the order's number only if it is the next one and
    // neither the number nor the key is taken; the order and its lines go in only if the
    // counter moved. A refused order thus changes nothing and fails no statement.
    static let insertOrderSQL: PostgresSQL = """
        WITH counted AS (
            UPDATE order_numbers SET last_number = $1
            WHERE id = 1 AND last_number = $1 - 1
                AND NOT EXISTS (SELECT FROM orders WHERE number = $1)
                AND NOT EXISTS (SELECT FROM orders WHERE idempotency_key = $7::text)
            RETURNING last_number
        ), placed AS (
            INSERT INTO orders (number, cart_id, placed_at, currency, total_items, total, idempotency_key)
            SELECT last_number, $2::text, $3::bigint, $4::text, $5::bigint, $6::bigint, $7::text FROM counted
            RETURNING number, placed_at
        ), lines AS (
            INSERT INTO order_lines (order_number, position, sku, name, unit_price, quantity, line_total, placed_at)
            SELECT placed.number, l.position, l.sku, l.name, l.unit_price, l.quantity, l.line_total, placed.placed_at
            FROM placed,
                unnest($8::text[], $9::text[], $10::bigint[], $11::bigint[], $12::bigint[]) WITH ORDINALITY
                    AS l (sku, name, unit_price, quantity, line_total, position)
        )
        SELECT count(*) FROM placed
        """

    func insertOrder(_ order: Order) throws {
        let lines = order.lines
        let result = try write(
            Self.insertOrderSQL,
            [
                .integer(order.number.rawValue), .text(order.cartID), .integer(UTCCalendar.milliseconds(order.placedAt)),
                .text(order.currency.code), PostgresValue(order.totalItems), .integer(order.total.minorUnits),
                PostgresValue(order.idempotencyKey), PostgresArrayLiteral.texts(lines.map(\.sku)),
                PostgresArrayLiteral.texts(lines.map(\.name)), PostgresArrayLiteral.integers(lines.map { $0.unitPrice.minorUnits }),
                PostgresArrayLiteral.integers(lines.map { Int64($0.quantity) }),
                PostgresArrayLiteral.integers(lines.map { $0.lineTotal.minorUnits }),
            ])
        guard try result.first?.int(0) == 1 else {
            let key = order.idempotencyKey.map { " or key '\(DisplayText.clean($0))'" } ?? ""
            throw PostgresStoreError.notStored(
                "a free order number \(order.number)\(key) following the last order number")
        }
    }

    // As insertOrderSQL for a batch ($1 to $2): the counter moves once, to the last number.
    static let insertOrdersSQL: PostgresSQL = """
        WITH counted AS (
            UPDATE order_numbers SET last_number = $2
            WHERE id = 1 AND last_number = $1 - 1
                AND NOT EXISTS (SELECT FROM orders WHERE number BETWEEN $1 AND $2)
                AND NOT EXISTS (SELECT FROM orders WHERE idempotency_key = ANY($9::text[]))
            RETURNING last_number
        ), placed AS (
            INSERT INTO orders (number, cart_id, placed_at, currency, total_items, total, idempotency_key)
            SELECT o.* FROM counted,
                unnest($3::bigint[], $4::text[], $5::bigint[], $6::text[], $7::bigint[], $8::bigint[], $9::text[]) AS o
            RETURNING number
        ), lines AS (
            INSERT INTO order_lines (order_number, position, sku, name, unit_price, quantity, line_total, placed_at)
            SELECT l.* FROM counted,
                unnest($10::bigint[], $11::integer[], $12::text[], $13::text[], $14::bigint[], $15::bigint[],
                    $16::bigint[], $17::bigint[]) AS l
        )
        SELECT count(*) FROM placed
        """

    // Plans made for each batch: the orders table grows within the unit, and the plan the
    // server would otherwise keep for the prepared statement, made while the table was small,
    // checks the keys by scanning it.
    private static let planEveryBatch: PostgresSQL = "SET LOCAL plan_cache_mode = force_custom_plan"

    // A statement per batch of `orderBatchSize`, which stores the whole batch or nothing. The
    // numbers' order and the keys within a batch are checked here, the rest by the statement,
    // so a refused batch fails no statement.
    func insertOrders(_ orders: [Order]) throws {
        if !orders.isEmpty { connection.queue(Self.planEveryBatch) }
        var start = orders.startIndex
        while start < orders.endIndex {
            let batch = orders[start..<min(start + Self.orderBatchSize, orders.endIndex)]
            start = batch.endIndex
            guard let first = batch.first?.number.rawValue, let last = batch.last?.number.rawValue else { return }
            let keys = batch.compactMap(\.idempotencyKey)
            guard zip(batch, batch.dropFirst()).allSatisfy({ $0.number.rawValue &+ 1 == $1.number.rawValue }),
                Set(keys).count == keys.count,
                try write(Self.insertOrdersSQL, Self.parameters(of: batch, from: first, to: last)).first?.int(0) == batch.count
            else {
                throw PostgresStoreError.notStored(
                    "orders \(first) to \(last), numbered in turn after the last order number, with keys no other order has")
            }
        }
    }

    /// The parameters of `insertOrdersSQL`: the first and last number, the orders' columns and
    /// their lines' columns.
    private static func parameters(of orders: ArraySlice<Order>, from first: Int64, to last: Int64) -> [PostgresValue] {
        let lines = orders.flatMap { order in
            order.lines.enumerated().map { (order: order, position: Int64($0.offset + 1), line: $0.element) }
        }
        return [
            .integer(first), .integer(last), PostgresArrayLiteral.integers(orders.map(\.number.rawValue)),
            PostgresArrayLiteral.texts(orders.map(\.cartID)),
            PostgresArrayLiteral.integers(orders.map { UTCCalendar.milliseconds($0.placedAt) }),
            PostgresArrayLiteral.texts(orders.map(\.currency.code)),
            PostgresArrayLiteral.integers(orders.map { Int64($0.totalItems) }),
            PostgresArrayLiteral.integers(orders.map(\.total.minorUnits)), PostgresArrayLiteral.texts(orders.map(\.idempotencyKey)),
            PostgresArrayLiteral.integers(lines.map(\.order.number.rawValue)), PostgresArrayLiteral.integers(lines.map(\.position)),
            PostgresArrayLiteral.texts(lines.map(\.line.sku)), PostgresArrayLiteral.texts(lines.map(\.line.name)),
            PostgresArrayLiteral.integers(lines.map(\.line.unitPrice.minorUnits)),
            PostgresArrayLiteral.integers(lines.map { Int64($0.line.quantity) }),
            PostgresArrayLiteral.integers(lines.map(\.line.lineTotal.minorUnits)),
            PostgresArrayLiteral.integers(lines.map { UTCCalendar.milliseconds($0.order.placedAt) }),
        ]
    }

    private static let orderColumns = "o.number, o.cart_id, o.placed_at, o.total_items, o.total, o.idempotency_key, o.currency"
    private static let lineColumns = "l.sku, l.name, l.unit_price, l.quantity, l.line_total"

    /// A statement returning the orders of the CTE `page` (with `orderColumns` and sort keys
    /// `t` and `n`), one row per line, in page order and then line order, with the store
    /// currency, so that a page costs one round trip.
    private static func withLines(page: String, descending: Bool = false) -> String {
        let direction = descending ? " DESC" : ""
        return "WITH page AS (" + page + ") SELECT page.number, page.cart_id, page.placed_at, page.total_items, "
            + "page.total, page.idempotency_key, " + lineColumns + ", s.currency, s.currency_exponent, s.currency_symbol, "
            + "page.currency"
            + " FROM page LEFT JOIN order_lines AS l ON l.order_number = page.number"
            + " LEFT JOIN settings AS s ON s.id = 1 ORDER BY page.t" + direction + ", page.n" + direction + ", l.position"
    }

    private static let selectOrderByNumber = PostgresSQL(
        withLines(page: "SELECT " + orderColumns + ", o.placed_at AS t, o.number AS n FROM orders AS o WHERE o.number = $1"))

    // Orders never change once stored, so reading one locks nothing.
    func order(number: OrderNumber) throws -> Order? {
        var found: Order?
        try orders(in: rows(Self.selectOrderByNumber, [.integer(number.rawValue)])) { found = $0 }
        return found
    }

    private static let selectOrderByKey = PostgresSQL(
        withLines(page: "SELECT " + orderColumns + ", o.placed_at AS t, o.number AS n FROM orders AS o WHERE o.idempotency_key = $1"))
    // A checkout decides from a key's absence, and an absent row cannot be locked: the key's
    // hash is, in a statement of its own, so that the read after it sees the order of a unit
    // that held the key until it committed.
    private static let lockIdempotencyKey: PostgresSQL = "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))"

    func order(idempotencyKey: String) throws -> Order? {
        let lock = PostgresStatement(Self.lockIdempotencyKey, [.text(idempotencyKey)])
        var found: Order?
        try orders(in: rows(Self.selectOrderByKey, [.text(idempotencyKey)], lock: lock)) { found = $0 }
        return found
    }

    /// Orders per statement when reading or inserting many.
    static let orderBatchSize = 500
    private static let selectOrderBatch = PostgresSQL(
        withLines(
            page: "SELECT " + orderColumns + ", o.number AS t, o.number AS n FROM orders AS o WHERE o.number > $1 "
                + "ORDER BY o.number LIMIT $2"))

    // Batches in number order, so memory stays bounded; in a read unit every batch reads the
    // same snapshot, and a write unit holds new orders off.
    func forEachOrder(_ body: (Order) throws -> Void) throws {
        var after: Int64 = 0
        keepReadOpenWhileIdle()
        while true {
            var count = 0
            let batch = try rows(
                Self.selectOrderBatch, [.integer(after), PostgresValue(Self.orderBatchSize)],
                lock: after == 0 ? Self.lockOrders : nil)
            try orders(in: batch) { order in
                count += 1
                after = order.number.rawValue
                try body(order)
            }
            guard count == Self.orderBatchSize else { return }
        }
    }

    /// The statement `forEachOrder(matching:)` runs for `query`, up to `$last` orders: a
    /// keyset page in (placed_at, number) order. With a SKU filter it reads from
    /// `order_lines_by_sku`, whose entries carry the order's time, so that case pages by index
    /// as well.
    static func orderPageSQL(_ filter: PostgresOrderFilter, sort: OrderQuery.Sort) -> String {
        let direction = sort == .newestFirst ? " DESC" : ""
        let page =
            "SELECT " + orderColumns + ", " + filter.placedAt + " AS t, " + filter.number + " AS n" + filter.fromAndWhere
            + " ORDER BY " + filter.placedAt + direction + ", " + filter.number + direction + " LIMIT $" + String(filter.parameters.count + 1)
        return withLines(page: page, descending: sort == .newestFirst)
    }

    // A page of the size asked for; a longer listing in batches, each continuing after the
    // last order of the one before, as a caller's next page would.
    func forEachOrder(matching query: OrderQuery, _ body: (Order) throws -> Void) throws {
        var query = query
        var remaining = query.limit ?? Int.max
        var lock: PostgresStatement? = Self.lockOrders
        keepReadOpenWhileIdle()
        while remaining > 0 {
            let size = min(remaining, Self.orderBatchSize)
            let filter = PostgresOrderFilter(query, includeCursor: true)
            var count = 0
            let sql = Self.orderPageSQL(filter, sort: query.sort)
            let batch = try rows(PostgresSQL(sql), filter.parameters + [PostgresValue(size)], lock: lock)
            lock = nil
            try orders(in: batch) { order in
                count += 1
                query.after = order.number
                try body(order)
            }
            guard count == size else { return }
            remaining -= size
        }
    }

    private static let noIdleTimeout: PostgresSQL = "SET LOCAL idle_in_transaction_session_timeout = 0"

    /// In a read unit, lifts the session's limit on idling inside a transaction for the rest
    /// of the unit: between batches the unit waits on the caller, who may write each order to
    /// a slow client or a paused pipe, and the server would otherwise end the session part way
    /// through. A read unit locks no row and holds no settings change off, so its idling keeps
    /// no other unit waiting.
    private func keepReadOpenWhileIdle() {
        if !locks { connection.queue(Self.noIdleTimeout) }
    }

    /// Calls `body` with each order of `result` (columns of `withLines`), in row order.
    private func orders(in result: PostgresResult, _ body: (Order) throws -> Void) throws {
        guard let first = result.first else { return }
        guard !(try first.isNull(11)) else { throw PostgresStoreError.missingRow("settings row") }
        let currency = try Self.currency(first, at: 11)
        // The amount in `column`, which must lie in `range`.
        func money(_ row: PostgresRow, at column: Int, in range: ClosedRange<Int64>, _ what: @autoclosure () -> String) throws
            -> Money
        {
            Money(minorUnits: Int64(try row.int(column, in: range, what())), currency: currency)
        }
        var current: (number: Int64, row: PostgresRow, lines: [OrderLine])?
        func finish() throws {
            guard let (number, row, lines) = current else { return }
            let order = "order \(number)"
            if let error = StoredDataError.otherCurrency(try row.string(14), ofOrder: number, store: currency) { throw error }
            try body(
                Order(
                    number: OrderNumber(rawValue: number), cartID: try row.string(1),
                    placedAt: try Self.instant(row, at: 2, "the time \(order) was placed"), currency: currency,
                    totalItems: try row.int(3, in: StoredRange.orderItems, "the units of \(order)"),
                    total: try money(row, at: 4, in: StoredRange.amount, "the total of \(order)"),
                    idempotencyKey: try row.optionalString(5), lines: lines))
        }
        for row in result {
            let number = Int64(try row.int(0, in: StoredRange.orderNumber, "an order number"))
            if let open = current, open.number != number {
                try finish()
                current = nil
            }
            if current == nil { current = (number, row, []) }
            guard !(try row.isNull(6)) else { continue }
            let sku = try row.string(6)
            // The line's name is built only for an error message.
            func line() -> String { "'\(DisplayText.clean(sku))' in order \(number)" }
            current?.lines.append(
                OrderLine(
                    sku: sku, name: try row.string(7),
                    unitPrice: try money(row, at: 8, in: StoredRange.price, "the unit price of \(line())"),
                    quantity: try row.int(9, in: StoredRange.lineQuantity, "the quantity of \(line())"),
                    lineTotal: try money(row, at: 10, in: StoredRange.amount, "the total of \(line())")))
        }
        try finish()
    }

    func orderStats(matching query: OrderQuery, groupedBy grouping: OrderStatsGrouping, utcOffset: UTCOffset) throws
        -> [OrderStatsRow]
    {
        var filter = PostgresOrderFilter(query, includeCursor: false)
        // Sums are cast back to bigint, so that one beyond 64 bits fails (22003) as it would
        // in Swift.
        let sql: String
        switch grouping {
        case .total:
            sql = "SELECT 0, count(*), coalesce(sum(o.total_items), 0)::bigint, coalesce(sum(o.total), 0)::bigint"
                + filter.fromAndWhere
        case .day, .month:
            // Whole days since the epoch, as UTCCalendar.day(milliseconds:offset:) counts them:
            // the UTC day floored (also before 1970), then one back or on where the offset
            // crosses midnight. No step can overflow, whatever placed_at holds.
            let offsetPlaceholder = filter.parameter(.integer(utcOffset.milliseconds))
            let rest = "((o.placed_at % 86400000) + 86400000) % 86400000"
            sql = "SELECT o.placed_at / 86400000 - (o.placed_at % 86400000 < 0)::int + (" + rest + " + "
                + offsetPlaceholder + "::bigint + 86400000) / 86400000 - 1 AS day, "
                + "count(*), sum(o.total_items)::bigint, "
                + "sum(o.total)::bigint" + filter.fromAndWhere + " GROUP BY day ORDER BY day"
        case .product:
            sql = "SELECT l.sku, count(*), sum(l.quantity)::bigint, sum(l.line_total)::bigint FROM order_lines AS l "
                + "WHERE l.order_number IN (SELECT o.number" + filter.fromAndWhere + ") "
                + "GROUP BY l.sku ORDER BY sum(l.line_total) DESC, l.sku"
        }
        let result: PostgresResult
        do {
            result = try rows(PostgresSQL(sql), filter.parameters, lock: Self.lockOrders)
        } catch let error as PostgresError where error.sqlState == "22003" {
            throw CartError.amountOverflow
        }
        let currency = try settings().currency
        var rows: [OrderStatsRow] = []
        for row in result {
            let key: String
            switch grouping {
            case .total: key = "total"
            case .day, .month: key = try OrderStatsRow.key(day: try row.int64(0), groupedBy: grouping)
            case .product: key = try row.string(0)
            }
            try OrderStatsRow.append(
                OrderStatsRow(
                    key: key, orders: try row.int(1),
                    items: try row.int(2, in: 0...Int64.max, "the units sold in \(key)"),
                    revenue: Money(minorUnits: try row.int64(3), currency: currency)),
                to: &rows)
        }
        return rows
    }
}
