/// What `SQLiteCartRepository.status()` reports about a database file.
public struct DatabaseStatus: Hashable, Sendable {
    /// The file's path (`:memory:` for an in-memory database).
    public let path: String
    /// How many migrations are applied: the schema version.
    public let schemaVersion: Int
    /// The migrations applied, oldest first.
    public let appliedMigrations: [AppliedMigration]
    /// Migrations this build ships that are not applied yet.
    public let pendingMigrations: [String]
    /// SQLite's journal mode (`wal` normally).
    public let journalMode: String
    /// The SQLite library version in use.
    public let sqliteVersion: String
}
