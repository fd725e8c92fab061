import CartCore

extension SQLiteCartRepository {
    /// `PRAGMA integrity_check`, then the tables, indexes and triggers that are missing or
    /// not as the migrations made them, the rows that reference nothing, the carts and orders
    /// whose summary of their lines is off, missing order numbers and the values the service
    /// cannot work with: one line per problem, none
    /// for a healthy file. SQLite reports several problems in one row, one per line,
    /// under a `*** in database main ***` heading that is not a problem itself.
    func integrityProblems() throws -> [String] {
        let check = try database.prepare("PRAGMA integrity_check")
        var lines: [String] = []
        do {
            while try check.step() {
                lines += check.shownString(at: 0).split(whereSeparator: \.isNewline).map(String.init)
                    .filter { $0 != "ok" && !$0.hasPrefix("*** in database ") && !$0.allSatisfy(\.isWhitespace) }
            }
        } catch let error as DatabaseError where error.category == .damagedStore {
            // A page so damaged that the check itself cannot go on: what it found, and that.
            lines.append("the integrity check stopped at a damaged page: SQLite says \(error.message)")
        }
        lines = Self.counted(lines)
        let rows = {
            try self.danglingReferences() + self.lineSummaryMismatches() + self.orderSummaryMismatches()
                + self.storedValueProblems()
        }
        lines += lines.isEmpty ? try schemaProblems() : (try? schemaProblems()) ?? []
        // SQLite's own findings may be damaged pages, on which these queries stop at the first
        // page they cannot read (the pages are the news then), or rows that break a CHECK,
        // whose values the queries name; a changed schema may lack a table or column they read.
        guard lines.isEmpty else { return lines + ((try? rows()) ?? []) }
        return try rows()
    }

    /// `lines` with each repeated line once, in the order of its first, followed by how many
    /// times it came: SQLite writes its `CHECK constraint failed in products` once a row, naming
    /// no row, while the checks after it name each value.
    private static func counted(_ lines: [String]) -> [String] {
        var counts: [String: Int] = [:]
        for line in lines { counts[line, default: 0] += 1 }
        var seen: Set<String> = []
        return lines.compactMap { line in
            guard seen.insert(line).inserted else { return nil }
            let count = counts[line] ?? 1
            return count == 1 ? line : "\(line) (\(count) times)"
        }
    }

    private static let selectSchema = CachedSQL(
        "SELECT type, name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite%' ORDER BY name")
    private static let countAppliedMigrations = CachedSQL("SELECT count(*) FROM schema_migrations")

    /// One line per table, index or trigger of the schema that the file lacks or holds with
    /// other SQL than the applied migrations give it (a dropped index, a column added, a
    /// constraint taken out): the migrations run on an empty database in memory, and the two
    /// schemas are compared. Objects another client added to the file are not problems.
    func schemaProblems() throws -> [String] {
        let applied = Int(try database.scalar(Self.countAppliedMigrations) ?? 0)
        let migrations = Migrator.shipped.migrations
        guard applied <= migrations.count else { return [] }
        let expected = try Database(path: ":memory:", busyTimeout: .zero)
        for migration in migrations.prefix(applied) { try expected.execute(migration.sql) }
        let found = Dictionary(try schema(of: database).map { ($0.name, $0) }) { first, _ in first }
        return try schema(of: expected).compactMap { object in
            guard let stored = found[object.name], stored.type == object.type else {
                return "\(object.type) \(object.name) is missing: the schema was changed outside cart"
            }
            guard stored.sql == object.sql else {
                return "\(object.type) \(object.name) is not as the migrations made it: the schema was changed outside cart"
            }
            return nil
        }
    }

    private func schema(of database: Database) throws -> [(type: String, name: String, sql: String?)] {
        let rows = try database.cached(Self.selectSchema)
        defer { rows.reset() }
        var objects: [(type: String, name: String, sql: String?)] = []
        while try rows.step() { objects.append((rows.shownString(at: 0), rows.shownString(at: 1), (rows.isNull(at: 2) ? nil : rows.shownString(at: 2)))) }
        return objects
    }

    private static let lineSummaryCheck = CachedSQL(
        """
        SELECT c.id, c.line_count, c.next_position, count(l.sku), coalesce(max(l.position), 0)
        FROM carts AS c LEFT JOIN cart_lines AS l ON l.cart_id = c.id
        GROUP BY c.id
        HAVING c.line_count <> count(l.sku) OR c.next_position <= coalesce(max(l.position), 0)
        """)

    /// One line per cart whose row's summary of its lines (`line_count`, `next_position`,
    /// kept by `CartService` with every line it writes) no longer matches them: another client
    /// changed `cart_lines`.
    private func lineSummaryMismatches() throws -> [String] {
        let check = try database.cached(Self.lineSummaryCheck)
        defer { check.reset() }
        var lines: [String] = []
        while try check.step() {
            lines += StoreCheckFinding.cartSummary(
                cart: check.shownString(at: 0), lineCount: check.int64(at: 1), nextPosition: check.int64(at: 2),
                storedLines: check.int64(at: 3), lastPosition: check.int64(at: 4)
            ).map(\.description)
        }
        return lines
    }

    // sum() fails the whole statement when a sum leaves 64 bits, so each value is summed in
    // two halves, value / 2^32 and value % 2^32, which cannot overflow for fewer than 2^31
    // lines an order. Put together in SQL, the halves either give the exact integer or, where
    // a step overflows, a REAL, which rounds: an order whose sum is not an integer there
    // always comes back, and `combined(_:_:)` puts every returned order's halves together
    // exactly.
    private static let orderSummaryCheck = CachedSQL(
        """
        SELECT o.number, o.total_items, o.total, count(l.position),
            coalesce(sum(l.quantity / 4294967296), 0), coalesce(sum(l.quantity % 4294967296), 0),
            coalesce(sum(l.line_total / 4294967296), 0), coalesce(sum(l.line_total % 4294967296), 0)
        FROM orders AS o LEFT JOIN order_lines AS l ON l.order_number = o.number
        GROUP BY o.number
        HAVING count(l.position) = 0
            OR typeof(coalesce(sum(l.quantity / 4294967296), 0) * 4294967296
                + coalesce(sum(l.quantity % 4294967296), 0)) <> 'integer'
            OR typeof(coalesce(sum(l.line_total / 4294967296), 0) * 4294967296
                + coalesce(sum(l.line_total % 4294967296), 0)) <> 'integer'
            OR o.total_items <> coalesce(sum(l.quantity / 4294967296), 0) * 4294967296
                + coalesce(sum(l.quantity % 4294967296), 0)
            OR o.total <> coalesce(sum(l.line_total / 4294967296), 0) * 4294967296
                + coalesce(sum(l.line_total % 4294967296), 0)
        ORDER BY o.number
        """)

    /// `high × 2^32 + low`, or `nil` when it does not fit 64 bits.
    static func combined(_ high: Int64, _ low: Int64) -> Int64? {
        Int64(exactly: Int128(high) << 32 + Int128(low))
    }

    private static let orderNumberCheck = CachedSQL("SELECT count(*), coalesce(max(number), 0) FROM orders")
    private static let orderCurrencyCheck = CachedSQL(
        "SELECT o.number, o.currency, s.currency FROM orders AS o JOIN settings AS s ON s.id = 1 "
            + "WHERE o.currency IS NOT s.currency ORDER BY o.number")
    private static let orderLineInstantCheck = CachedSQL(
        "SELECT l.order_number, count(*) FROM order_lines AS l JOIN orders AS o ON o.number = l.order_number "
            + "WHERE l.placed_at IS NOT o.placed_at GROUP BY l.order_number ORDER BY l.order_number")

    /// One line per order whose row's totals are not the sums of its lines, or that has none,
    /// or that is in another currency than the store, or whose lines hold another instant than
    /// it, and one when numbers below the highest are missing: another client changed the
    /// orders.
    private func orderSummaryMismatches() throws -> [String] {
        let check = try database.cached(Self.orderSummaryCheck)
        defer { check.reset() }
        var lines: [String] = []
        while try check.step() {
            let finding = StoreCheckFinding.orderSummary(
                number: check.int64(at: 0), items: check.int64(at: 1), total: check.int64(at: 2), lines: check.int64(at: 3),
                lineItems: Self.combined(check.int64(at: 4), check.int64(at: 5)),
                lineTotal: Self.combined(check.int64(at: 6), check.int64(at: 7)))
            if let finding { lines.append(finding.description) }
        }
        let numbers = try database.cached(Self.orderNumberCheck)
        defer { numbers.reset() }
        if try numbers.step(), numbers.int64(at: 0) != numbers.int64(at: 1) {
            lines.append(StoreCheckFinding.orderNumbersMissing(orders: numbers.int64(at: 0), highest: numbers.int64(at: 1)).description)
        }
        let currencies = try database.cached(Self.orderCurrencyCheck)
        defer { currencies.reset() }
        while try currencies.step() {
            lines.append(
                StoreCheckFinding.orderCurrency(
                    number: currencies.int64(at: 0), currency: currencies.shownString(at: 1), storeCurrency: currencies.shownString(at: 2)
                ).description)
        }
        let instants = try database.cached(Self.orderLineInstantCheck)
        defer { instants.reset() }
        while try instants.step() {
            lines.append(StoreCheckFinding.orderLineInstants(number: instants.int64(at: 0), lines: instants.int64(at: 1)).description)
        }
        return lines
    }

    /// One line per row that references a row that does not exist: its table, the key it
    /// holds and the parent table. `PRAGMA foreign_key_check` names the row by its rowid, which
    /// is NULL in a `WITHOUT ROWID` table (every table with a foreign key here), so the key is
    /// read from the row itself: the columns of the violated foreign key, from
    /// `PRAGMA foreign_key_list`.
    private func danglingReferences() throws -> [String] {
        let check = try database.prepare("PRAGMA foreign_key_check")
        var violated: [(table: String, parent: String, foreignKey: Int64, rows: Int)] = []
        while try check.step() {
            let table = check.shownString(at: 0)
            let foreignKey = check.int64(at: 3)
            if let index = violated.firstIndex(where: { $0.table == table && $0.foreignKey == foreignKey }) {
                violated[index].rows += 1
            } else {
                violated.append((table, check.shownString(at: 2), foreignKey, 1))
            }
        }
        var lines: [String] = []
        for violation in violated {
            let keys = try danglingKeys(in: violation.table, foreignKey: violation.foreignKey, parent: violation.parent)
            let described = keys.count == violation.rows ? keys : Array(repeating: "a row", count: violation.rows)
            lines += described.map {
                "foreign key violation: \(violation.table) \($0) references no row of \(violation.parent)"
            }
        }
        return lines
    }

    /// The keys (`(sku) = ('ghost')`) that rows of `table` hold in its foreign key number
    /// `foreignKey` and that `parent` lacks; empty if the key's parent columns are implicit.
    private func danglingKeys(in table: String, foreignKey: Int64, parent: String) throws -> [String] {
        let list = try database.prepare("SELECT \"from\", \"to\" FROM pragma_foreign_key_list(?1) WHERE id = ?2")
        try list.bind(table, at: 1)
        try list.bind(foreignKey, at: 2)
        var columns: [(from: String, to: String)] = []
        while try list.step() {
            guard let to = (list.isNull(at: 1) ? nil : list.shownString(at: 1)) else { return [] }
            columns.append((list.shownString(at: 0), to))
        }
        guard !columns.isEmpty else { return [] }
        let values = columns.map { "quote(c.\(Self.quoted($0.from)))" }.joined(separator: " || ', ' || ")
        let present = columns.map { "c.\(Self.quoted($0.from)) IS NOT NULL" }.joined(separator: " AND ")
        let matches = columns.map { "p.\(Self.quoted($0.to)) = c.\(Self.quoted($0.from))" }.joined(separator: " AND ")
        // Tables and columns are identifiers, which SQLite cannot bind: they come from the
        // schema (the foreign key list above), each quoted by `quoted(_:)`; no value is spliced.
        let rows = try database.prepare(
            "SELECT " + values + " FROM " + Self.quoted(table) + " AS c WHERE " + present
                + " AND NOT EXISTS (SELECT 1 FROM " + Self.quoted(parent) + " AS p WHERE " + matches + ")")
        let names = columns.map(\.from).joined(separator: ", ")
        var keys: [String] = []
        while try rows.step() { keys.append("(\(names)) = (\(rows.shownString(at: 0)))") }
        return keys
    }

    /// An SQL identifier, quoted.
    private static func quoted(_ identifier: String) -> String {
        "\"" + identifier.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }
}
