#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CartCore
import Migrations

/// Applies the migrations embedded from `Migrations/SQLite/*.sql`, recording each one (name
/// and SHA-256 checksum) in `schema_migrations`, and refuses a file it does not fully
/// recognize before writing anything to it (`MigrationPlan.verify`).
struct Migrator {
    let plan: MigrationPlan

    /// The migrations this build ships, with the checksums the build computed.
    static let shipped = Migrator(
        plan: MigrationPlan(
            EmbeddedMigrations.sqlite.map {
                MigrationPlan.Migration(number: $0.number, name: $0.name, sql: $0.sql, checksum: $0.checksum)
            }))

    /// Every migration this build ships.
    var migrations: [MigrationPlan.Migration] { plan.migrations }

    private static let selectTableNames = CachedSQL("SELECT name FROM sqlite_schema WHERE type = 'table'")
    private static let countRecordColumns = CachedSQL(
        "SELECT count(*) FROM pragma_table_info('schema_migrations') WHERE name IN ('number', 'name', 'checksum', 'applied_at')")
    private static let selectAppliedMigrations = CachedSQL("SELECT name, checksum, applied_at FROM schema_migrations ORDER BY number")

    /// The migrations recorded in the database, or `[]` for a new, empty database.
    ///
    /// A file of ours answers the one query of its records; only when that fails (a new or
    /// foreign file, or an error) are the tables listed, and the answer or error is the one
    /// that check gives, so a short command opening a current file runs one query.
    ///
    /// - Throws: `MigrationError` for a file this build must not touch, or `DatabaseError`
    ///   (for instance `SQLITE_NOTADB`).
    func applied(in database: Database) throws -> [AppliedMigration] {
        if let recorded = try? records(in: database) {
            try verify(recorded)
            return recorded
        }
        let tables = try database.cached(Self.selectTableNames)
        defer { tables.reset() }
        var names: Set<String> = []
        while try tables.step() { names.insert(try tables.string(at: 0)) }
        // No record table, or another tool's of the same name (Rails and others keep a
        // `schema_migrations` with other columns): another application's database.
        guard names.contains("schema_migrations"), try database.scalar(Self.countRecordColumns) == 4 else {
            if names.isEmpty { return [] }
            throw MigrationError.foreignDatabase
        }
        let recorded = try records(in: database)
        try verify(recorded)
        return recorded
    }

    /// The rows of `schema_migrations`, in order.
    private func records(in database: Database) throws -> [AppliedMigration] {
        let rows = try database.cached(Self.selectAppliedMigrations)
        defer { rows.reset() }
        var applied: [AppliedMigration] = []
        while try rows.step() {
            applied.append(
                AppliedMigration(
                    name: try rows.string(at: 0), checksum: try rows.string(at: 1),
                    appliedAt: UTCCalendar.date(milliseconds: rows.int64(at: 2))))
        }
        return applied
    }

    /// Refuses migrations this build does not know, out of order, or with changed SQL.
    func verify(_ applied: [AppliedMigration]) throws {
        try plan.verify(applied)
    }

    private static let foreignKeysEnabled = CachedSQL("PRAGMA foreign_keys")
    private static let foreignKeyCheck = CachedSQL("PRAGMA foreign_key_check")

    /// Applies every pending migration in one `BEGIN IMMEDIATE` transaction, re-reading what is
    /// applied inside it so that concurrent openers apply each migration once. A new database
    /// also gets its settings row.
    ///
    /// Foreign keys are off while migrations run, so that a migration can rebuild a table
    /// other tables reference (https://www.sqlite.org/lang_altertable.html, "Making Other Kinds
    /// Of Table Schema Changes"; 0003 copies `products` aside, drops and recreates it, and
    /// copies the rows back). The pragma does nothing inside a transaction, so it is switched
    /// around it, and `PRAGMA foreign_key_check` runs before the commit instead: a migration
    /// that would leave a row referencing nothing is rolled back. Foreign keys must read on
    /// again afterwards, or the connection is not used.
    ///
    /// - Returns: the names of the migrations applied now.
    /// - Throws: `MigrationError.danglingReferences` or `.failed` (nothing applied then), the errors of
    ///   `applied(in:)`, or `DatabaseError` (one whose `isReadOnly` is true when this process
    ///   cannot write the file); the migration's own error before one from turning foreign keys
    ///   back on.
    func migrate(_ database: Database, initialSettings: StoreSettings, now: Date) throws -> [String] {
        let foreignKeys = try database.scalar(Self.foreignKeysEnabled) == 1
        if foreignKeys { try database.execute("PRAGMA foreign_keys = OFF") }
        let result = Result { try migrateInTransaction(database, initialSettings: initialSettings, now: now) }
        let restored = Result { if foreignKeys { try restoreForeignKeys(database) } }
        let names = try result.get()
        try restored.get()
        return names
    }

    /// Turns foreign keys back on and makes sure they are: `PRAGMA foreign_keys = ON` silently
    /// does nothing while a transaction is open (one whose `ROLLBACK` failed, say), so that
    /// transaction is rolled back first.
    private func restoreForeignKeys(_ database: Database) throws {
        if !database.isAutocommit { try database.execute("ROLLBACK") }
        try database.execute("PRAGMA foreign_keys = ON")
        guard try database.scalar(Self.foreignKeysEnabled) == 1 else {
            throw DatabaseError(
                extendedResultCode: 1, message: "foreign keys could not be turned back on after migrating",
                sql: "PRAGMA foreign_keys = ON")
        }
    }

    private func migrateInTransaction(_ database: Database, initialSettings: StoreSettings, now: Date) throws
        -> [String]
    {
        try database.transaction(.immediate) {
            let applied = try self.applied(in: database)
            let pending = plan.pending(after: applied)
            guard !pending.isEmpty else { return [] }
            // Said as a read-only store, not as a migration its data makes fail.
            guard !database.isReadOnly else {
                throw DatabaseError.readOnly(
                    reason: "\(pending.count == 1 ? "migration" : "migrations") "
                        + pending.map(\.name).joined(separator: ", ")
                        + " \(pending.count == 1 ? "is" : "are") pending, and only a process that can write the file can apply "
                        + (pending.count == 1 ? "it" : "them"))
            }
            try database.execute(
                """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    number INTEGER PRIMARY KEY,
                    name TEXT NOT NULL UNIQUE,
                    checksum TEXT NOT NULL,
                    applied_at INTEGER NOT NULL
                ) STRICT
                """)
            let record = try database.prepare(
                "INSERT INTO schema_migrations (number, name, checksum, applied_at) VALUES (?, ?, ?, ?)")
            for migration in pending {
                do {
                    try database.execute(migration.sql)
                } catch let error as DatabaseError where !error.isBusy && !error.isReadOnly {
                    // Not the whole script in the message: SQLite's reason names the table.
                    throw MigrationError.failed(name: migration.name, reason: error.message)
                }
                record.reset()
                try record.bind(migration.number, at: 1)
                try record.bind(migration.name, at: 2)
                try record.bind(migration.checksum, at: 3)
                try record.bind(UTCCalendar.milliseconds(now), at: 4)
                try record.run()
            }
            try checkForeignKeys(database)
            if applied.isEmpty {
                try SQLiteCartStorage(database: database)
                    .saveSettings(try initialSettings.validated())
            }
            return pending.map(\.name)
        }
    }

    /// Refuses the schema if any row references a row that does not exist: before migrating
    /// (a read, so a refused file keeps every byte) and inside the migration's transaction.
    ///
    /// - Throws: `MigrationError.danglingReferences`, or `DatabaseError`.
    func checkForeignKeys(_ database: Database) throws {
        let check = try database.cached(Self.foreignKeyCheck)
        defer { check.reset() }
        var dangling: [String: Int] = [:]
        while try check.step() {
            dangling["\(check.shownString(at: 0)) -> \(check.shownString(at: 2))", default: 0] += 1
        }
        guard dangling.isEmpty else {
            throw MigrationError.danglingReferences(dangling.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" })
        }
    }
}
