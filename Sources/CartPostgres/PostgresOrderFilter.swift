import CartCore

/// The FROM and WHERE clauses for an `OrderQuery`, built from fixed fragments, and the values
/// of their `$n` parameters in order.
struct PostgresOrderFilter {
    /// ` FROM … WHERE …`, selecting orders as `o`.
    private(set) var fromAndWhere = ""
    /// The column holding the order's time in the driving table.
    let placedAt: String
    /// The column holding the order number in the driving table.
    let number: String
    /// The values of `$1`, `$2`, … in the clauses.
    private(set) var parameters: [PostgresValue] = []

    /// The clauses for `query`'s filters and, with `includeCursor`, its keyset cursor.
    init(_ query: OrderQuery, includeCursor: Bool) {
        var conditions: [String] = []
        // Stats over a SKU filter aggregate whole orders, so only paged listings drive from
        // order_lines, whose index by SKU carries each order's time.
        if query.sku != nil && includeCursor {
            placedAt = "l.placed_at"
            number = "l.order_number"
            fromAndWhere = " FROM order_lines AS l JOIN orders AS o ON o.number = l.order_number"
        } else {
            placedAt = "o.placed_at"
            number = "o.number"
            fromAndWhere = " FROM orders AS o"
        }
        if let sku = query.sku {
            conditions.append(
                includeCursor
                    ? "l.sku = " + parameter(.text(sku))
                    : "o.number IN (SELECT order_number FROM order_lines WHERE sku = " + parameter(.text(sku)) + ")")
        }
        if query.sku != nil && includeCursor {
            // An order lists once, from its first line of the SKU, though another client may
            // have written it two.
            conditions.append(
                "NOT EXISTS (SELECT FROM order_lines AS d"
                    + " WHERE d.order_number = l.order_number AND d.position < l.position AND d.sku = l.sku)")
        }
        if let cartID = query.cartID { conditions.append("o.cart_id = " + parameter(.text(cartID))) }
        let bounds = query.placedMillisecondBounds
        if let onOrAfter = bounds.onOrAfter { conditions.append(placedAt + " >= " + parameter(.integer(onOrAfter))) }
        if let before = bounds.before { conditions.append(placedAt + " < " + parameter(.integer(before))) }
        if includeCursor, let after = query.after {
            // No row is selected when the cursor's order does not exist: the comparison with
            // its NULL time is never true, as `OrderQuery.select(from:)` states.
            let cursor = parameter(.integer(after.rawValue))
            let comparison = query.sort == .newestFirst ? " < " : " > "
            conditions.append(
                "(" + placedAt + ", " + number + ")" + comparison + "((SELECT placed_at FROM orders WHERE number = " + cursor + "), "
                    + cursor + ")")
        }
        if !conditions.isEmpty { fromAndWhere += " WHERE " + conditions.joined(separator: " AND ") }
    }

    /// Appends `value` and returns its placeholder, `$n`.
    mutating func parameter(_ value: PostgresValue) -> String {
        parameters.append(value)
        return "$" + String(parameters.count)
    }
}
