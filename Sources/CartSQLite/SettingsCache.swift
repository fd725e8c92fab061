import CartCore

/// The store settings as one connection last read or wrote them, and the file's data version
/// they hold for. Nearly every unit of work reads the settings and they almost never change,
/// so a unit reads the row only when the file changed since. Owned by a repository and used
/// under its lock.
final class SettingsCache {
    private var entry: (settings: StoreSettings, dataVersion: UInt64)?

    /// The settings, from the cache while the file is unchanged, else from `read`. Call inside
    /// a transaction.
    func settings(in database: Database, read: () throws -> StoreSettings) throws -> StoreSettings {
        if let entry, database.hasOpenTransaction, entry.dataVersion == database.dataVersion { return entry.settings }
        let settings = try read()
        entry = (settings, database.dataVersion)
        return settings
    }

    /// Records settings the open transaction has just written.
    func saved(_ settings: StoreSettings, in database: Database) {
        entry = (settings, database.dataVersion)
    }

    /// After a commit: settings valid until it stay valid, because only that unit wrote.
    func committed(versionBeforeCommit: UInt64, in database: Database) {
        if entry?.dataVersion == versionBeforeCommit { entry?.dataVersion = database.dataVersion }
    }

    /// After a rollback: the unit may have saved settings that are gone now.
    func forget() {
        entry = nil
    }
}
