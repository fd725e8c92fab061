import CartCore

/// The queries of `PostgresCartRepository.check()`, run on one connection inside one
/// read-only snapshot; each problem is one line naming the rows concerned.
struct PostgresStoreCheck {
    let connection: PostgresConnection

    func problems() throws -> [String] {
        try disabledTriggers() + checkViolations() + rangeViolations() + danglingReferences() + lineSummaryMismatches()
            + orderTotalMismatches() + orderNumberProblems() + settingsProblems() + currencyProblems() + orderCurrencyProblems()
            + orderLineInstantProblems() + secretProblems() + orderLineNameProblems()
    }

    private static let schemaOID = "(SELECT oid FROM pg_catalog.pg_namespace WHERE nspname = current_schema())"

    private static let selectDisabledTriggers = PostgresSQL("""
        SELECT 'trigger ' || t.tgname || ' of ' || t.tgrelid::regclass::text || ' is disabled'
            || CASE WHEN t.tgisinternal THEN ': its foreign key is not enforced' ELSE '' END
        FROM pg_catalog.pg_trigger AS t JOIN pg_catalog.pg_class AS r ON r.oid = t.tgrelid
        WHERE r.relnamespace = \(schemaOID) AND t.tgenabled = 'D'
        ORDER BY 1
        """)

    /// Triggers switched off, those of foreign keys among them. (A constraint made NOT VALID
    /// is a finding of `PostgresSchemaCheck`.)
    private func disabledTriggers() throws -> [String] {
        try connection.execute(Self.selectDisabledTriggers).map { try $0.string(0) }
    }

    private static let selectCheckConstraints = PostgresSQL("""
        SELECT c.conrelid::regclass::text, r.relname, c.conname, pg_catalog.pg_get_expr(c.conbin, c.conrelid), a.attname
        FROM pg_catalog.pg_constraint AS c JOIN pg_catalog.pg_class AS r ON r.oid = c.conrelid
        LEFT JOIN pg_catalog.pg_attribute AS a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
        WHERE c.connamespace = \(schemaOID) AND c.contype = 'c'
        ORDER BY 1, 3, 5
        """)

    /// One line per CHECK constraint that rows break, with how many. The query of each is
    /// built from the catalog: the table's name as the server quotes it and the constraint's
    /// expression as the server prints it; no stored value is spliced into SQL. A row whose
    /// value in a column the constraint reads lies outside its `StoredRange` is not counted:
    /// `rangeViolations()` names it, and a row is one problem, not two.
    private func checkViolations() throws -> [String] {
        // One row per column a constraint reads, the constraint's rows next to each other.
        var constraints: [(table: String, relation: String, name: String, expression: String, columns: Set<String>)] = []
        for row in try connection.execute(Self.selectCheckConstraints) {
            let (table, name) = (try row.string(0), try row.string(2))
            if constraints.last?.table != table || constraints.last?.name != name {
                constraints.append((table, try row.string(1), name, try row.string(3), []))
            }
            if let column = try row.optionalString(4) { constraints[constraints.count - 1].columns.insert(column) }
        }
        var lines: [String] = []
        for constraint in constraints {
            var sql = "SELECT count(*) FROM " + constraint.table + " WHERE NOT (" + constraint.expression + ")"
            var bounds: [PostgresValue] = []
            for column in StoredColumnRange.all where column.table == constraint.relation && constraint.columns.contains(column.column) {
                sql += " AND coalesce(\(column.column) BETWEEN $\(bounds.count + 1)::bigint AND $\(bounds.count + 2)::bigint, \(column.nullable))"
                bounds += [.integer(column.range.lowerBound), .integer(column.range.upperBound)]
            }
            let count = try connection.execute(PostgresSQL(sql), bounds).first?.int(0) ?? 0
            if count > 0 {
                lines.append("\(constraint.table): \(count) row\(count == 1 ? "" : "s") break CHECK constraint \(constraint.name)")
            }
        }
        return lines
    }

    /// For each column of `StoredColumnRange.all`, the query that finds the rows outside its
    /// range (or NULL, where a value is required), with the row's key as text in its first
    /// columns and the value last. Identifiers come from that constant list; the range is bound.
    private static let selectOutOfRange: [(column: StoredColumnRange, sql: PostgresSQL)] = StoredColumnRange.all.map { column in
        let value = column.column
        let sql =
            "SELECT " + (column.key.map { $0 + "::text" } + [value]).joined(separator: ", ") + " FROM " + column.table
            + " WHERE " + value + " NOT BETWEEN $1::bigint AND $2::bigint" + (column.nullable ? "" : " OR " + value + " IS NULL")
            + (column.key.isEmpty ? "" : " ORDER BY " + column.key.map { column.table + "." + $0 }.joined(separator: ", "))
        return (column, PostgresSQL(sql))
    }

    /// One line per stored integer outside the range the service works with (`StoredRange`),
    /// named as a read that refuses it names it: values a superuser let past the CHECK
    /// constraints, and counters at the largest integer, which the constraints allow.
    private func rangeViolations() throws -> [String] {
        var lines: [String] = []
        for (column, sql) in Self.selectOutOfRange {
            let keyColumns = column.key.count
            for row in try connection.execute(sql, [.integer(column.range.lowerBound), .integer(column.range.upperBound)]) {
                let key = try (0..<keyColumns).map { try row.string($0) }
                let value = try row.optionalInt64(keyColumns).map { StoredRange.outside($0, column.range) } ?? "is NULL, not an integer"
                lines.append("\(column.name(key)) \(value)")
            }
        }
        return lines
    }

    private static let selectDanglingReferences: PostgresSQL = """
        SELECT 'cart_lines (cart_id, sku) = (' || quote_literal(l.cart_id) || ', ' || quote_literal(l.sku)
            || ') references no row of carts'
        FROM cart_lines AS l WHERE NOT EXISTS (SELECT FROM carts AS c WHERE c.id = l.cart_id)
        UNION ALL
        SELECT 'cart_lines (cart_id, sku) = (' || quote_literal(l.cart_id) || ', ' || quote_literal(l.sku)
            || ') references no row of products'
        FROM cart_lines AS l WHERE NOT EXISTS (SELECT FROM products AS p WHERE p.sku = l.sku)
        UNION ALL
        SELECT 'order_lines (order_number, position) = (' || l.order_number || ', ' || l.position
            || ') references no row of orders'
        FROM order_lines AS l WHERE NOT EXISTS (SELECT FROM orders AS o WHERE o.number = l.order_number)
        ORDER BY 1
        """

    /// Rows whose foreign key references nothing, each named by its key.
    private func danglingReferences() throws -> [String] {
        try connection.execute(Self.selectDanglingReferences).map { "foreign key violation: " + DisplayText.escaped(try $0.string(0)) }
    }

    private static let selectLineSummaryMismatches: PostgresSQL = """
        SELECT c.id, c.line_count, c.next_position, count(l.sku), coalesce(max(l.position), 0)
        FROM carts AS c LEFT JOIN cart_lines AS l ON l.cart_id = c.id
        GROUP BY c.id
        HAVING c.line_count <> count(l.sku) OR c.next_position <= coalesce(max(l.position), 0)
        ORDER BY c.id
        """

    /// Carts whose row's summary of its lines (`line_count`, `next_position`, kept by
    /// `CartService` with every line it writes) no longer matches them.
    private func lineSummaryMismatches() throws -> [String] {
        try connection.execute(Self.selectLineSummaryMismatches).flatMap { row in
            StoreCheckFinding.cartSummary(
                cart: try row.string(0), lineCount: try row.int64(1), nextPosition: try row.int64(2),
                storedLines: try row.int64(3), lastPosition: try row.int64(4)
            ).map(\.description)
        }
    }

    private static let selectOrderTotalMismatches: PostgresSQL = """
        SELECT o.number, o.total_items, o.total, count(l.position),
            coalesce(sum(l.quantity), 0)::text, coalesce(sum(l.line_total), 0)::text
        FROM orders AS o LEFT JOIN order_lines AS l ON l.order_number = o.number
        GROUP BY o.number
        HAVING count(l.position) = 0 OR o.total_items <> coalesce(sum(l.quantity), 0)
            OR o.total <> coalesce(sum(l.line_total), 0)
        ORDER BY o.number
        """

    /// Orders without lines, or whose totals are not the sums of their lines. The sums are
    /// `numeric`, read as text: one beyond 64 bits is a finding of its own.
    private func orderTotalMismatches() throws -> [String] {
        try connection.execute(Self.selectOrderTotalMismatches).compactMap { row in
            StoreCheckFinding.orderSummary(
                number: try row.int64(0), items: try row.int64(1), total: try row.int64(2), lines: try row.int64(3),
                lineItems: Int64(try row.string(4)), lineTotal: Int64(try row.string(5))
            )?.description
        }
    }

    private static let selectOrderNumbers: PostgresSQL = """
        SELECT (SELECT count(*) FROM order_numbers), (SELECT last_number FROM order_numbers WHERE id = 1),
            (SELECT count(*) FROM orders), (SELECT coalesce(max(number), 0) FROM orders)
        """

    /// An order counter missing or out of step with the orders, and numbers missing below the
    /// highest.
    private func orderNumberProblems() throws -> [String] {
        guard let row = try connection.execute(Self.selectOrderNumbers).first else { return [] }
        let (counters, orders, highest) = (try row.int64(0), try row.int64(2), try row.int64(3))
        var lines: [String] = []
        if counters != 1 { lines.append("order_numbers holds \(counters) rows instead of 1") }
        if let last = try row.optionalInt64(1), last != highest {
            lines.append("the order counter is at \(last), the highest order number is \(highest)")
        }
        if orders != highest { lines.append(StoreCheckFinding.orderNumbersMissing(orders: orders, highest: highest).description) }
        return lines
    }

    private static let countSettings: PostgresSQL = "SELECT count(*) FILTER (WHERE id = 1), count(*) FROM settings"

    /// The settings row missing, which every unit reads, or more rows than the one the
    /// schema allows (its constraints dropped).
    private func settingsProblems() throws -> [String] {
        guard let row = try connection.execute(Self.countSettings).first else { return [] }
        let (found, rows) = (try row.int64(0), try row.int64(1))
        if found == 0 { return ["the store has no settings row"] }
        return rows == 1 ? [] : ["settings holds \(rows) rows instead of 1"]
    }

    private static let selectCurrency: PostgresSQL = "SELECT currency, currency_exponent, currency_symbol FROM settings"

    /// A built-in currency stored with other digits, or a currency symbol `Currency` refuses,
    /// which no CHECK constraint describes.
    private func currencyProblems() throws -> [String] {
        try connection.execute(Self.selectCurrency).compactMap {
            Currency.storedProblem(
                code: try $0.string(0), minorUnitExponent: try $0.int64(1), symbol: try $0.optionalString(2)
            )?.message
        }
    }

    private static let selectSecrets: PostgresSQL = "SELECT secret FROM store_secret"

    /// A store secret that is not one, which only a dropped CHECK constraint lets in.
    private func secretProblems() throws -> [String] {
        try connection.execute(Self.selectSecrets).compactMap {
            StoreSecret(hex: try $0.string(0)) == nil ? StoreSecret.unusable.message : nil
        }
    }

    /// Order lines whose names hold a character that products' CHECK constraint refuses in a
    /// name: order_lines has no such constraint.
    private static let selectOrderLineNames: PostgresSQL = #"""
        SELECT order_number, sku, name FROM order_lines
        WHERE name ~ '[\u0001-\u001f\u007f-\u009f\u2028-\u202e\u2066-\u2069]'
        ORDER BY order_number, position
        """#

    /// Order lines with names no product could have had, which only another client's write
    /// stores: found by the characters the service refuses, worded by the service's rule.
    private func orderLineNameProblems() throws -> [String] {
        try connection.execute(Self.selectOrderLineNames).compactMap { row in
            StoredDataError.unusableName(try row.string(2), ofLineOf: try row.int64(0), sku: try row.string(1))?.message
        }
    }

    private static let selectOrderCurrencies: PostgresSQL = """
        SELECT o.number, o.currency, s.currency FROM orders AS o JOIN settings AS s ON s.id = 1
        WHERE o.currency IS DISTINCT FROM s.currency ORDER BY o.number
        """

    /// Orders in another currency than the store's.
    private func orderCurrencyProblems() throws -> [String] {
        try connection.execute(Self.selectOrderCurrencies).map { row in
            StoreCheckFinding.orderCurrency(number: try row.int64(0), currency: try row.string(1), storeCurrency: try row.string(2))
                .description
        }
    }

    private static let selectOrderLineInstants: PostgresSQL = """
        SELECT l.order_number, count(*) FROM order_lines AS l JOIN orders AS o ON o.number = l.order_number
        WHERE l.placed_at IS DISTINCT FROM o.placed_at
        GROUP BY l.order_number ORDER BY l.order_number
        """

    /// Orders whose lines hold another instant than the order, which filters of orders by
    /// product and time read.
    private func orderLineInstantProblems() throws -> [String] {
        try connection.execute(Self.selectOrderLineInstants).map { row in
            StoreCheckFinding.orderLineInstants(number: try row.int64(0), lines: try row.int64(1)).description
        }
    }
}
