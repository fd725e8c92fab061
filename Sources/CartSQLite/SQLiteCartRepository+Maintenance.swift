public import CartCore
import CSQLite

extension SQLiteCartRepository: StoreMaintenance {
    /// The schema version, the migrations applied and pending, the journal mode and SQLite's
    /// version.
    ///
    /// - Throws: `DatabaseError`, or `MigrationError` if the file is not one this build can use.
    public func status() throws -> StoreStatus {
        try withConnection {
            let applied = try database.consistentRead { try appliedMigrations() }
            return StoreStatus(
                kind: SQLiteStoreBackend.kind, location: path, schemaVersion: applied.count,
                appliedMigrations: applied,
                pendingMigrations: Migrator.shipped.plan.pending(after: applied).map(\.name),
                details: [
                    StoreStatus.Detail(key: "journalMode", label: "Journal mode", value: try currentJournalMode()),
                    StoreStatus.Detail(
                        key: "sqliteVersion", label: "SQLite", value: String(cString: sqlite3_libversion())),
                ])
        }
    }

    /// Applies pending migrations in one transaction; a new file gets the repository's initial
    /// settings.
    ///
    /// - Returns: the names of the migrations applied now; empty when up to date.
    /// - Throws: `DatabaseError` or `MigrationError`.
    @discardableResult
    public func migrate() throws -> [String] {
        try withConnection { try applyMigrations() }
    }

    /// SQLite's `PRAGMA integrity_check` and the rows whose foreign key references nothing,
    /// each named by its key.
    ///
    /// - Returns: one line per problem; empty for a healthy file.
    /// - Throws: `DatabaseError`.
    public func check() throws -> [String] {
        try withConnection { try database.consistentRead { try integrityProblems() } }
    }

    /// The tables, indexes and triggers that are missing or not as the applied migrations
    /// made them, compared with those migrations run on an empty database in memory.
    ///
    /// - Returns: one line per difference; empty when the schema is as the migrations made it.
    /// - Throws: `DatabaseError`.
    public func schemaDifferences() throws -> [String] {
        try withConnection { try database.consistentRead { try schemaProblems() } }
    }
}

extension SQLiteCartRepository {
    /// Opens SQLite files through a `StoreRegistry`: every location that is not a URL is a
    /// file path.
    public static let backend: any StoreBackend = SQLiteStoreBackend()
}
