/// Why a database file was refused: before anything was written to it, or, for
/// `danglingReferences` and `failed`, with the migrations rolled back.
public enum MigrationError: Error, CustomStringConvertible, Sendable {
    /// The file records migrations this build does not ship: a newer version wrote it.
    case unknownMigrations([String])
    /// A recorded migration's SQL differs from this build's copy of it.
    case checksumMismatch(name: String)
    /// The file is a SQLite database, but not one of this tool's.
    case foreignDatabase
    /// Migrations are pending and the connection may not apply them (opened with
    /// `migrate: false`, or read-only).
    case pendingMigrations([String])
    /// Migrating would leave rows referencing rows that do not exist (`child -> parent: count`
    /// for each reference); nothing was applied.
    case danglingReferences([String])
    /// A pending migration's SQL failed on this file's data (a row another client stored that
    /// the new schema refuses, say): SQLite's one-line reason. Nothing was applied.
    case failed(name: String, reason: String)

    public var description: String {
        switch self {
        case .unknownMigrations(let names):
            return "The database was written by a newer version of cart (unknown migrations: "
                + names.joined(separator: ", ") + "); upgrade cart to open it."
        case .checksumMismatch(let name):
            return "Migration \(name) recorded in the database differs from this build's copy; refusing to open it."
        case .foreignDatabase:
            return "The file is a SQLite database, but not a cart database."
        case .pendingMigrations(let names):
            return "The database needs migrations (\(names.joined(separator: ", "))); run 'cart db migrate'."
        case .danglingReferences(let references):
            return "Migrating the database would leave rows referencing nothing ("
                + references.joined(separator: ", ") + "); no migration was applied. 'cart db check' lists "
                + "them: delete or fix those rows, then run 'cart db migrate'."
        case .failed(let name, let reason):
            return "Migration \(name) cannot be applied to this database (\(reason)); no migration was applied."
        }
    }
}
