extension CartService {
    /// The largest page `orders(matching:)` returns.
    public static let maxPageSize = 10_000
    /// The page `orders(matching:)` returns when the query sets no limit.
    public static let defaultPageSize = 20

    /// One page of orders matching `query`, with the cursor for the next page. `query.limit`
    /// must be 1...10000 (default `defaultPageSize`).
    ///
    /// Pages use a keyset cursor (`OrderQuery.after`), so page 10,000 costs what page 1 costs.
    ///
    /// - Throws: `CartError.invalidLimit`, `.invalidCartID`, `.invalidSKU`, `.emptyDateRange`,
    ///   `.orderNotFound` for an `after` that names no order, `StoredDataError` for an order
    ///   whose stored values the service cannot use, or a storage error.
    public func orders(matching query: OrderQuery) throws -> OrderPage {
        var query = try Self.validated(query)
        let limit = query.limit ?? Self.defaultPageSize
        guard (1...Self.maxPageSize).contains(limit) else { throw CartError.invalidLimit(limit) }
        query.limit = limit + 1
        var orders: [Order] = []
        orders.reserveCapacity(min(limit + 1, 1024))
        try repository.read { storage in
            // A backend may run a read unit again (see `CartRepository`).
            orders.removeAll(keepingCapacity: true)
            try Self.checkCursor(query.after, in: storage)
            try storage.forEachOrder(matching: query) { order in
                // The order after the page only says that there is a next page, which checks it.
                if orders.count < limit, let error = StoredDataError.incomplete(order) { throw error }
                orders.append(order)
            }
        }
        guard orders.count > limit else { return OrderPage(orders: orders, next: nil) }
        orders.removeLast()
        return OrderPage(orders: orders, next: orders.last?.number)
    }

    /// Calls `body` for every order matching `query` (up to its limit, if any), one at a time
    /// in constant memory, inside one consistent snapshot. When the backend runs the read
    /// again (see `CartRepository`), the orders carry on after the last one `body` got, each
    /// delivered once: placed orders never change.
    ///
    /// - Returns: whether more orders match beyond the limit (never without one). The first
    ///   of them is read to learn that; it is neither checked nor given to `body`.
    /// - Throws: `CartError.invalidLimit`, `.invalidCartID`, `.invalidSKU`, `.emptyDateRange`,
    ///   `.orderNotFound` for an `after` that names no order, `StoredDataError` for an order
    ///   whose stored values the service cannot use, what `body` throws, or a storage error.
    @discardableResult
    public func forEachOrder(matching query: OrderQuery, _ body: (Order) throws -> Void) throws -> Bool {
        var rest = try Self.validated(query)
        if let limit = rest.limit, limit < 1 { throw CartError.invalidLimit(limit) }
        var remaining = rest.limit
        var more = false
        try repository.read { storage in
            try Self.checkCursor(rest.after, in: storage)
            rest.limit = remaining.map { $0 == .max ? $0 : $0 + 1 }
            more = false
            try storage.forEachOrder(matching: rest) { order in
                guard remaining != 0 else {
                    more = true
                    return
                }
                if let error = StoredDataError.incomplete(order) { throw error }
                try body(order)
                rest.after = order.number
                remaining = remaining.map { $0 - 1 }
            }
        }
        return more
    }

    /// Refuses a page cursor that names no order: its page would be empty, which a client
    /// could not tell from the end of the list.
    private static func checkCursor(_ after: OrderNumber?, in storage: some CartStorageReader) throws {
        guard let after else { return }
        guard after.rawValue >= 1, try storage.order(number: after) != nil else { throw CartError.orderNotFound(after) }
    }

    /// The order with this number, with its lines.
    ///
    /// - Throws: `CartError.orderNotFound`, `StoredDataError` for an order whose lines do not
    ///   add up to it, or a storage error.
    public func order(_ number: OrderNumber) throws -> Order {
        guard number.rawValue >= 1 else { throw CartError.orderNotFound(number) }
        guard let order = try repository.read({ storage in try storage.order(number: number) }) else {
            throw CartError.orderNotFound(number)
        }
        if let error = StoredDataError.incomplete(order) { throw error }
        return order
    }

    /// Orders, units sold and revenue over the orders matching `query`'s filters, grouped by
    /// day or month (oldest first; the days beginning at midnight at `utcOffset`, UTC when it
    /// is nil), by product (highest revenue first), or in one total row.
    ///
    /// - Throws: `CartError.invalidCartID`, `.invalidSKU`, `.emptyDateRange`,
    ///   `.utcOffsetNeedsDays` for an offset without day or month grouping, or a storage error.
    public func orderStats(
        matching query: OrderQuery = OrderQuery(), groupedBy grouping: OrderStatsGrouping, utcOffset: UTCOffset? = nil
    ) throws -> [OrderStatsRow] {
        let query = try Self.validated(query)
        if let utcOffset, grouping != .day, grouping != .month {
            throw CartError.utcOffsetNeedsDays(utcOffset, grouping: grouping)
        }
        return try repository.read { storage in
            try storage.orderStats(matching: query, groupedBy: grouping, utcOffset: utcOffset ?? .utc)
        }
    }

    static func validated(_ query: OrderQuery) throws(CartError) -> OrderQuery {
        var query = query
        if let cartID = query.cartID { query.cartID = try Validation.cartID(cartID) }
        if let sku = query.sku { query.sku = try Validation.sku(sku) }
        if let since = query.placedOnOrAfter, let until = query.placedBefore, until <= since {
            throw .emptyDateRange(since: since, until: until)
        }
        return query
    }
}
