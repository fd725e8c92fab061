import CartCore

/// The part of `PostgresCartRepository.check()` that compares the store's schema with what its
/// applied migrations make: one line per table, column, index, constraint, trigger or function
/// of theirs that the store lacks or holds otherwise (a dropped unique index, a column default
/// taken out, a constraint made NOT VALID). Objects another client added are not problems.
///
/// The migrations run in a scratch schema inside a transaction that is always rolled back, and
/// the catalog describes both schemas in the same words. The scratch schema is a new one where
/// the role may create schemas in the database; otherwise it is the session's temporary schema,
/// which every role may use unless TEMP was revoked. There the search path goes on to the
/// store's schema, because PostgreSQL never looks in `pg_temp` for a function: the scratch
/// triggers call the store's function, and a store without it cannot be compared.
struct PostgresSchemaCheck {
    let connection: PostgresConnection

    func problems() throws -> [String] {
        switch try comparison() {
        case .compared(let differences): differences
        case .notCompared(let why): [Self.notCompared(why)]
        }
    }

    /// What comparing the schema found, or why it could not compare.
    enum Comparison {
        /// One line per difference; none when the schema is as the migrations made it.
        case compared([String])
        /// No scratch schema could be made, for the reason given.
        case notCompared(String)
    }

    func comparison() throws -> Comparison {
        // A standby takes no writes, so no scratch schema: the check says so and goes on.
        if try connection.execute(Self.selectInRecovery).first?.bool(0) == true {
            return .notCompared("the server is a standby, which takes no writes; check the primary")
        }
        do {
            return .compared(try compare())
        } catch let error as PostgresError where error.sqlState == "42501" {
            return .notCompared("the role may neither create a schema nor use temporary tables (TEMP)")
        }
    }

    private static let selectInRecovery: PostgresSQL = "SELECT pg_catalog.pg_is_in_recovery()"

    /// The one finding of a check that could not compare the schema, saying `why`.
    private static func notCompared(_ why: String) -> String {
        "the schema was not compared with the migrations, which run in a scratch schema: \(why)"
    }

    private func compare() throws -> [String] {
        try connection.rolledBack {
            let applied = try PostgresMigrator.shipped.survey(connection).applied.count
            // Read first: the temporary schema, once it exists, comes before the store's in
            // name look-ups, and the catalog would then print the store's names qualified.
            let found = Dictionary(try describe().map { ($0.name, $0.definition) }, uniquingKeysWith: { first, _ in first })
            try enterScratchSchema()
            let scripts = [("the record of migrations", PostgresMigrator.createRecords)]
                + PostgresMigrator.shipped.plan.migrations.prefix(applied).map { ($0.name, $0.sql) }
            for (name, sql) in scripts {
                do {
                    try connection.executeScript(sql)
                } catch let error as PostgresError where PostgresMigrator.isScriptFailure(error) {
                    return ["the schema cannot be compared with the migrations: \(name) fails in a scratch schema: \(error.message)"]
                }
            }
            // A table that is missing is one problem, not one for each of its parts.
            return try describe().compactMap { object in
                guard object.table.isEmpty || object.name == "table " + object.table || found["table " + object.table] != nil
                else { return nil }
                return Self.problem(object.name, expected: object.definition, found: found[object.name])
            }
        }
    }

    private static let selectMayCreateSchema: PostgresSQL = "SELECT has_database_privilege(current_database(), 'CREATE')"
    private static let searchTemporarySchemaFirst: PostgresSQL =
        "SELECT set_config('search_path', 'pg_temp, ' || quote_ident(current_schema()), true)"

    /// Makes the scratch schema the first of the transaction's search path.
    private func enterScratchSchema() throws {
        if try connection.execute(Self.selectMayCreateSchema).first?.bool(0) == true {
            // Hex digits made here, so the name is written into the SQL as it is.
            let name = "cart_check_" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
            try connection.executeScript("CREATE SCHEMA " + name + "; SET LOCAL search_path = " + name)
        } else {
            try connection.execute(Self.searchTemporarySchemaFirst)
        }
    }

    // Each object of `current_schema()`: its name (`index orders_by_cart`, `column
    // products.active`, `constraint products_price_check of products`), the table it belongs
    // to (empty for a function) and its definition in the catalog's words. Names the search
    // path reaches are printed unqualified, so two schemas compare equal. Indexes that belong
    // to a constraint are described by the constraint, and NOT NULL (a constraint of its own
    // on PostgreSQL 18) by the column.
    private static let selectObjects: PostgresSQL = """
        WITH schema AS (SELECT oid FROM pg_catalog.pg_namespace WHERE nspname = current_schema())
        SELECT 'table ' || c.relname, c.relname, ''
        FROM pg_catalog.pg_class AS c WHERE c.relnamespace = (SELECT oid FROM schema) AND c.relkind IN ('r', 'p')
        UNION ALL
        SELECT 'column ' || c.relname || '.' || a.attname, c.relname,
            pg_catalog.format_type(a.atttypid, a.atttypmod)
                || CASE WHEN a.attcollation <> t.typcollation THEN ' COLLATE ' || quote_ident(o.collname) ELSE '' END
                || CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END
                || coalesce(' DEFAULT ' || pg_catalog.pg_get_expr(d.adbin, d.adrelid, true), '')
        FROM pg_catalog.pg_class AS c
        JOIN pg_catalog.pg_attribute AS a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
        JOIN pg_catalog.pg_type AS t ON t.oid = a.atttypid
        LEFT JOIN pg_catalog.pg_collation AS o ON o.oid = a.attcollation
        LEFT JOIN pg_catalog.pg_attrdef AS d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
        WHERE c.relnamespace = (SELECT oid FROM schema) AND c.relkind IN ('r', 'p')
        UNION ALL
        SELECT 'index ' || i.relname, c.relname, pg_catalog.pg_get_indexdef(i.oid, 0, true)
        FROM pg_catalog.pg_index AS x
        JOIN pg_catalog.pg_class AS i ON i.oid = x.indexrelid JOIN pg_catalog.pg_class AS c ON c.oid = x.indrelid
        WHERE i.relnamespace = (SELECT oid FROM schema)
            AND NOT EXISTS (SELECT FROM pg_catalog.pg_constraint AS k WHERE k.conindid = i.oid AND k.contype IN ('p', 'u', 'x'))
        UNION ALL
        SELECT 'constraint ' || k.conname || ' of ' || c.relname, c.relname, pg_catalog.pg_get_constraintdef(k.oid, true)
        FROM pg_catalog.pg_constraint AS k JOIN pg_catalog.pg_class AS c ON c.oid = k.conrelid
        WHERE c.relnamespace = (SELECT oid FROM schema) AND k.contype <> 'n'
        UNION ALL
        SELECT 'trigger ' || g.tgname || ' of ' || c.relname, c.relname, pg_catalog.pg_get_triggerdef(g.oid, true)
        FROM pg_catalog.pg_trigger AS g JOIN pg_catalog.pg_class AS c ON c.oid = g.tgrelid
        WHERE c.relnamespace = (SELECT oid FROM schema) AND NOT g.tgisinternal
        UNION ALL
        SELECT 'function ' || p.proname || '(' || pg_catalog.pg_get_function_identity_arguments(p.oid) || ')', '',
            'RETURNS ' || pg_catalog.pg_get_function_result(p.oid) || ' LANGUAGE ' || l.lanname || ' AS ' || p.prosrc
        FROM pg_catalog.pg_proc AS p JOIN pg_catalog.pg_language AS l ON l.oid = p.prolang
        WHERE p.pronamespace = (SELECT oid FROM schema)
        ORDER BY 1
        """

    /// The objects of the first schema of the search path.
    private func describe() throws -> [(name: String, table: String, definition: String)] {
        try connection.execute(Self.selectObjects).map { (try $0.string(0), try $0.string(1), try $0.string(2)) }
    }

    /// The finding for `object` of the migrations, if the store lacks it or holds it with
    /// another definition. A definition of several lines (a function's body) is not repeated.
    private static func problem(_ object: String, expected: String, found: String?) -> String? {
        guard let found else { return "\(object) is missing: the schema was changed outside cart" }
        guard found != expected else { return nil }
        if found == expected + " NOT VALID" { return "\(object) is NOT VALID: rows from before it are unchecked" }
        let change =
            (found + expected).contains("\n") ? "is not as the migrations made it" : "is \(found), not \(expected) as the migrations made it"
        return "\(object) \(change): the schema was changed outside cart"
    }
}
