#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CartCore
import Migrations

/// Applies the migrations embedded from `Migrations/PostgreSQL/*.sql` to the first schema of
/// the search path, recording each one (name and SHA-256 checksum) in `schema_migrations`, and
/// refuses a schema it does not fully recognize before writing anything to it
/// (`MigrationPlan.verify`).
struct PostgresMigrator {
    let plan: MigrationPlan

    /// The migrations this build ships, with the checksums the build computed.
    static let shipped = PostgresMigrator(
        plan: MigrationPlan(
            EmbeddedMigrations.postgresql.map {
                MigrationPlan.Migration(number: $0.number, name: $0.name, sql: $0.sql, checksum: $0.checksum)
            }))

    /// What a schema holds, as far as migrating it is concerned.
    struct Survey {
        /// The schema tables are created in (`current_schema()`), or `nil` when the search
        /// path names none that exists.
        let schema: String?
        /// The migrations it records, verified; empty for a new store.
        let applied: [AppliedMigration]
        /// Whether the role may create tables in `schema`, as creating the store takes.
        let mayCreate: Bool
    }

    private static let surveySQL: PostgresSQL = """
        SELECT current_schema(),
            EXISTS (SELECT FROM pg_catalog.pg_class AS c JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
                WHERE n.nspname = current_schema() AND c.relname = 'schema_migrations' AND c.relkind IN ('r', 'p')),
            EXISTS (SELECT FROM pg_catalog.pg_class AS c JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
                WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'f')),
            coalesce(has_schema_privilege(current_schema(), 'CREATE'), false)
        """
    private static let selectRecords: PostgresSQL = "SELECT name, checksum, applied_at FROM schema_migrations ORDER BY number"

    /// The schema and the migrations it records.
    ///
    /// - Throws: `MigrationError` for a schema this build must not touch (another
    ///   application's tables, records of a newer build or of changed SQL), or `PostgresError`.
    func survey(_ connection: PostgresConnection) throws -> Survey {
        guard let row = try connection.execute(Self.surveySQL).first else {
            throw PostgresError(kind: .unexpectedResult, message: "the schema survey returned no row", sql: Self.surveySQL.text)
        }
        let schema = try row.optionalString(0)
        let mayCreate = try row.bool(3)
        guard try row.bool(1) else {
            if try row.bool(2) { throw MigrationError.foreignDatabase }
            return Survey(schema: schema, applied: [], mayCreate: mayCreate)
        }
        let records: PostgresResult
        do {
            records = try connection.execute(Self.selectRecords)
        } catch let error as PostgresError where error.sqlState == "42703" || error.sqlState == "42P01" {
            // A schema_migrations of another tool, with other columns.
            throw MigrationError.foreignDatabase
        }
        let applied = try records.map { row in
            AppliedMigration(
                name: try row.string(0), checksum: try row.string(1),
                appliedAt: UTCCalendar.date(milliseconds: try row.int64(2)))
        }
        try plan.verify(applied)
        return Survey(schema: schema, applied: applied, mayCreate: mayCreate)
    }

    // A lock of its own per schema, taken in the migrating transaction: concurrent first uses
    // wait for one another, and each after the first finds the migrations applied.
    private static let lockMigrations: PostgresSQL =
        "SELECT pg_advisory_xact_lock(hashtext('cart schema_migrations'), hashtext(coalesce(current_schema(), '')))"
    /// The table of applied migrations, which migrating creates before the first migration.
    static let createRecords = """
        CREATE TABLE IF NOT EXISTS schema_migrations (
            number integer PRIMARY KEY,
            name text NOT NULL UNIQUE,
            checksum text NOT NULL,
            applied_at bigint NOT NULL
        )
        """
    private static let insertRecord: PostgresSQL =
        "INSERT INTO schema_migrations (number, name, checksum, applied_at) VALUES ($1, $2, $3, $4)"
    private static let insertSettings: PostgresSQL = """
        INSERT INTO settings (id, currency, currency_exponent, currency_symbol, max_line_quantity, max_lines_per_cart)
        VALUES (1, $1, $2, $3, $4, $5)
        """

    /// Applies every pending migration in one transaction, surveying the schema again under
    /// the migration lock, so that concurrent openers apply each migration once. A new store
    /// also gets its settings row.
    ///
    /// - Returns: the names of the migrations applied now.
    /// - Throws: `MigrationError` (`.failed` with nothing applied when a migration's SQL
    ///   fails on this schema), `PostgresStoreError.noSchema`, or `PostgresError`.
    func migrate(_ connection: PostgresConnection, location: PostgresLocation, initialSettings: StoreSettings, now: Date)
        throws -> [String]
    {
        try connection.transaction {
            connection.queue(Self.lockMigrations)
            let survey = try survey(connection)
            let pending = plan.pending(after: survey.applied)
            guard !pending.isEmpty else { return [] }
            guard survey.schema != nil else { throw PostgresStoreError.noSchema(location: location.redacted) }
            try connection.executeScript(Self.createRecords)
            for migration in pending {
                do {
                    try connection.executeScript(migration.sql)
                } catch let error as PostgresError where Self.isScriptFailure(error) {
                    // The server's reason names the table; the script is not repeated.
                    throw MigrationError.failed(name: migration.name, reason: error.message)
                }
                connection.queue(
                    Self.insertRecord,
                    [
                        PostgresValue(migration.number), .text(migration.name), .text(migration.checksum),
                        .integer(UTCCalendar.milliseconds(now)),
                    ])
            }
            if survey.applied.isEmpty {
                let settings = try initialSettings.validated()
                let currency = settings.currency
                connection.queue(
                    Self.insertSettings,
                    [
                        .text(currency.code), PostgresValue(currency.minorUnitExponent), PostgresValue(currency.symbol),
                        PostgresValue(settings.maxLineQuantity), PostgresValue(settings.maxLinesPerCart),
                    ])
            }
            return pending.map(\.name)
        }
    }

    /// Whether a migration's script failed for what its SQL meets in the schema, rather than
    /// for the server refusing writes, the role's privileges, a timeout or a lock.
    static func isScriptFailure(_ error: PostgresError) -> Bool {
        error.kind == .server && !error.isReadOnlyTransaction && error.sqlState != "42501" && !error.isQueryCanceled
            && !error.isLockNotAvailable
    }
}
