import CartCore
import CartSQLite

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The one place the CLI chooses and opens a backend.
enum BackendFactory {
    /// Opens the store the global options name, creating the database (and its directory) on
    /// first use with `initialSettings`.
    ///
    /// - Throws: `CommandFailure` when the path is a directory or its directory cannot be
    ///   created, or the backend's error.
    static func make(
        store: StoreKind, path: String, busyTimeout: Duration, initialSettings: StoreSettings = .defaults,
        migrate: Bool = true
    ) throws -> any CartRepository {
        switch store {
        case .memory:
            return InMemoryCartRepository(settings: initialSettings)
        case .sqlite:
            return try openSQLite(
                path: path, busyTimeout: busyTimeout, initialSettings: initialSettings, migrate: migrate)
        }
    }

    /// Opens (or creates) a SQLite database, for the commands that manage the file itself.
    ///
    /// - Throws: `CommandFailure` for a directory, `MigrationError` or `DatabaseError`.
    static func openSQLite(
        path: String, busyTimeout: Duration, initialSettings: StoreSettings = .defaults, migrate: Bool = true
    ) throws -> SQLiteCartRepository {
        try prepareLocation(of: path)
        return try SQLiteCartRepository(
            path: path, busyTimeout: busyTimeout, initialSettings: initialSettings, migrate: migrate)
    }

    /// Refuses a directory and creates the missing parent directories, so that the error a
    /// person sees names the real problem rather than SQLite's "unable to open".
    static func prepareLocation(of path: String) throws {
        if FileSystem.isDirectory(path) {
            throw CommandFailure("'\(DisplayText.clean(path))' is a directory, not a database file.")
        }
        let parent = FileSystem.parentDirectory(of: path)
        guard !parent.isEmpty, !FileSystem.isDirectory(parent) else { return }
        do {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("Cannot create the directory '\(DisplayText.clean(parent))' for the database.")
        }
    }
}
