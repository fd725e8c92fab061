import CartCore

/// The FROM and WHERE clauses for an `OrderQuery`, built from fixed fragments, with the
/// query's values bound as parameters in the same order.
struct OrderFilter {
    /// ` FROM … WHERE …`, selecting orders as `o`.
    private(set) var fromAndWhere = ""
    /// The column holding the order's time in the driving table.
    let placedAt: String
    /// The column holding the order number in the driving table.
    let number: String
    private let query: OrderQuery
    private let includeCursor: Bool

    init(_ query: OrderQuery, includeCursor: Bool) {
        self.query = query
        self.includeCursor = includeCursor
        var conditions: [String] = []
        // Stats over a SKU filter aggregate whole orders, so only paged listings drive from lines.
        let drivesFromLines = query.sku != nil && includeCursor
        if drivesFromLines {
            placedAt = "l.placed_at"
            number = "l.order_number"
            fromAndWhere = " FROM order_lines AS l JOIN orders AS o ON o.number = l.order_number"
            conditions.append("l.sku = ?")
            // An order lists once, from its first line of the SKU, though another client may
            // have written it two.
            conditions.append(
                "NOT EXISTS (SELECT 1 FROM order_lines AS d"
                    + " WHERE d.order_number = l.order_number AND d.position < l.position AND d.sku = l.sku)")
        } else {
            placedAt = "o.placed_at"
            number = "o.number"
            fromAndWhere = " FROM orders AS o"
            if query.sku != nil {
                conditions.append("o.number IN (SELECT order_number FROM order_lines WHERE sku = ?)")
            }
        }
        if query.cartID != nil { conditions.append("o.cart_id = ?") }
        if query.placedOnOrAfter != nil { conditions.append(placedAt + " >= ?") }
        if query.placedBefore != nil { conditions.append(placedAt + " < ?") }
        if includeCursor, query.after != nil {
            let comparison = query.sort == .newestFirst ? " < " : " > "
            conditions.append(
                "(" + placedAt + ", " + number + ")" + comparison
                    + "((SELECT placed_at FROM orders WHERE number = ?), ?)")
        }
        if !conditions.isEmpty { fromAndWhere += " WHERE " + conditions.joined(separator: " AND ") }
    }

    /// Binds the filter's values from parameter `first` on; returns the next free parameter
    /// index.
    func bind(to statement: Statement, from first: Int32 = 1) throws -> Int32 {
        var index = first
        if let sku = query.sku {
            try statement.bind(sku, at: index)
            index += 1
        }
        if let cartID = query.cartID {
            try statement.bind(cartID, at: index)
            index += 1
        }
        let bounds = query.placedMillisecondBounds
        if let onOrAfter = bounds.onOrAfter {
            try statement.bind(onOrAfter, at: index)
            index += 1
        }
        if let before = bounds.before {
            try statement.bind(before, at: index)
            index += 1
        }
        if includeCursor, let after = query.after {
            // Once to look up the cursor order's time, once to break ties on that time.
            try statement.bind(after.rawValue, at: index)
            try statement.bind(after.rawValue, at: index + 1)
            index += 2
        }
        return index
    }
}
