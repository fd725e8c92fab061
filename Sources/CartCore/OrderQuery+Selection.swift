/// What an `OrderQuery` means, stated once: backends that do not push a query down to their
/// storage run it through these, and `CartContract` holds those that do to the same answers.
extension OrderQuery {
    /// The time filters as stored milliseconds: an order placed at millisecond `p` passes when
    /// `p >= onOrAfter` and `p < before` (a `nil` bound passes everything). Both are their
    /// instant rounded up to the whole millisecond (`UTCCalendar.ceilingMilliseconds(_:)`),
    /// which is exact at the stored precision whatever digits the instant has below it. Every
    /// backend compares with these, in its storage or through `includes(_:)`.
    public var placedMillisecondBounds: (onOrAfter: Int64?, before: Int64?) {
        (placedOnOrAfter.map(UTCCalendar.ceilingMilliseconds), placedBefore.map(UTCCalendar.ceilingMilliseconds))
    }

    /// Whether `order` passes the cart, time and SKU filters. Times compare at the stored
    /// precision, whole milliseconds (`placedMillisecondBounds`).
    public func includes(_ order: Order) -> Bool {
        if let cartID, order.cartID != cartID { return false }
        let placed = UTCCalendar.milliseconds(order.placedAt)
        let bounds = placedMillisecondBounds
        if let onOrAfter = bounds.onOrAfter, placed < onOrAfter { return false }
        if let before = bounds.before, placed >= before { return false }
        if let sku, !order.lines.contains(where: { $0.sku == sku }) { return false }
        return true
    }

    /// The orders of `orders` this query selects: those that pass the filters, sorted by the
    /// time they were placed and then by number (newest or oldest first), after the cursor
    /// order `after` in that sort, at most `limit` of them. The cursor order is looked up in
    /// `orders`; when it is not there, nothing is selected.
    public func select(from orders: [Order]) -> [Order] {
        var cursor: SortKey?
        if let after {
            guard let order = orders.first(where: { $0.number == after }) else { return [] }
            cursor = SortKey(order)
        }
        let newestFirst = sort == .newestFirst
        let selected = orders.filter { order in
            guard includes(order) else { return false }
            guard let cursor else { return true }
            return newestFirst ? SortKey(order) < cursor : SortKey(order) > cursor
        }
        let sorted = selected.sorted { newestFirst ? SortKey($0) > SortKey($1) : SortKey($0) < SortKey($1) }
        return Array(sorted.prefix(max(limit ?? Int.max, 0)))
    }

    /// Where an order comes in a listing: by placement time, ties broken by number.
    private struct SortKey: Comparable {
        let milliseconds: Int64
        let number: Int64

        init(_ order: Order) {
            milliseconds = UTCCalendar.milliseconds(order.placedAt)
            number = order.number.rawValue
        }

        static func < (lhs: SortKey, rhs: SortKey) -> Bool {
            (lhs.milliseconds, lhs.number) < (rhs.milliseconds, rhs.number)
        }
    }
}
