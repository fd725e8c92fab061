/// Why a store was refused: before anything was written to it, or, for `danglingReferences`
/// and `failed`, with the migrations rolled back.
public enum MigrationError: CategorizedError, Hashable, Sendable, CustomStringConvertible {
    /// The store records migrations this build does not ship: a newer version wrote it.
    case unknownMigrations([String])
    /// The store's record holds a row that names no migration of this or a later version (an
    /// empty name, one not shaped `NNNN_name`, or a number this build ships under another
    /// name): a damaged file, or one changed outside cart.
    case unrecognizedRecord(String)
    /// The store's record of applied migrations lacks `missing` yet records later ones, or
    /// (`missing` empty) records them out of order: it was changed outside cart.
    case brokenHistory(missing: [String])
    /// A recorded migration's SQL differs from this build's copy of it.
    case checksumMismatch(name: String)
    /// The database is not one of this tool's (it holds other tables and no migration record).
    case foreignDatabase
    /// Migrations are pending and may not be applied now (the store was opened without
    /// migrating, or read-only).
    case pendingMigrations([String])
    /// Migrating would leave rows referencing rows that do not exist (`child -> parent: count`
    /// for each reference); nothing was applied.
    case danglingReferences([String])
    /// A pending migration failed on this store's data (a row another client stored that the
    /// new schema refuses, say): the database's one-line reason. Nothing was applied.
    case failed(name: String, reason: String)

    public var category: ErrorCategory {
        switch self {
        case .unknownMigrations, .checksumMismatch, .foreignDatabase, .pendingMigrations: .incompatibleStore
        case .unrecognizedRecord, .brokenHistory, .danglingReferences, .failed: .damagedStore
        }
    }

    public var description: String {
        switch self {
        case .unknownMigrations(let names):
            return "The store was written by a newer version of cart (unknown migrations: "
                + names.map(DisplayText.clean).joined(separator: ", ") + "); upgrade cart to open it."
        case .unrecognizedRecord(let name):
            return "The store's record of applied migrations holds '\(DisplayText.clean(name))', which names no migration: "
                + "it is damaged or was changed outside cart; restore the store from a backup."
        case .brokenHistory(let missing) where missing.isEmpty:
            return "The store's record of applied migrations is out of order: it was changed outside cart; restore the store from a backup."
        case .brokenHistory(let missing):
            return "The store's record of applied migrations lacks "
                + missing.map(DisplayText.clean).joined(separator: ", ")
                + " but records later ones: it was changed outside cart; restore the store from a backup."
        case .checksumMismatch(let name):
            return "Migration \(DisplayText.clean(name)) recorded in the store differs from this build's copy; refusing to open it."
        case .foreignDatabase:
            return "The database holds another application's tables, not a cart store."
        case .pendingMigrations(let names):
            return "The store needs migrations (\(names.map(DisplayText.clean).joined(separator: ", "))) that were not applied."
        case .danglingReferences(let references):
            return "Migrating the store would leave rows referencing nothing ("
                + references.joined(separator: ", ") + "); no migration was applied."
        case .failed(let name, let reason):
            return "Migration \(name) cannot be applied to this store (\(reason)); no migration was applied."
        }
    }
}
