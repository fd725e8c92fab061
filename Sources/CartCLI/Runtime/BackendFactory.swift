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

    /// Refuses a path that cannot be a database file: a directory (or a path ending in `/`) and
    /// a device, pipe or socket such as `/dev/null`, before anything is created or opened.
    static func refuseNonFile(_ path: String) throws {
        if FileSystem.isDirectory(path) || path.hasSuffix("/") {
            throw CommandFailure("'\(DisplayText.clean(path))' is a directory, not a database file.")
        }
        if FileSystem.isSpecialFile(path) {
            throw CommandFailure(
                "'\(DisplayText.clean(path))' is not a regular file (a device, pipe or socket), so it cannot hold a database.")
        }
    }

    /// Refuses a directory, creates the missing parent directories, and refuses to create a
    /// database in a directory that cannot be written, so that the error a person sees names
    /// the real problem rather than SQLite's "unable to open".
    static func prepareLocation(of path: String) throws {
        try refuseNonFile(path)
        let parent = FileSystem.parentDirectory(of: path)
        if !parent.isEmpty, !FileSystem.isDirectory(parent) {
            do {
                try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            } catch {
                throw CommandFailure("Cannot create the directory '\(DisplayText.clean(parent))' for the database.")
            }
        }
        let directory = parent.isEmpty ? "." : parent
        if !FileSystem.exists(path), !FileSystem.isWritable(directory) {
            throw CommandFailure(
                "Cannot create the database '\(DisplayText.clean(path))': the directory "
                    + "'\(DisplayText.clean(directory))' is not writable.")
        }
    }
}
