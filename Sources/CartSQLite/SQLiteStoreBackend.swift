import CartCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// SQLite files as a `StoreBackend`. A location is a file path, byte for byte; one written as
/// a URL (`scheme://…`, `scheme:…`) or a connection string belongs to another backend.
struct SQLiteStoreBackend: StoreBackend {
    static let kind = "sqlite"

    var kind: String { Self.kind }

    var locationExamples: [String] { [] }

    func accepts(_ location: String) -> Bool {
        !location.isEmpty && !StoreRegistry.looksLikeURLOrConnectionString(location)
    }

    /// Refuses a path that cannot be a database file (a directory, a device, a pipe), creates
    /// the missing parent directories when a new file may be created, and opens the file. A
    /// file without tables (0 bytes, or a SQLite header alone) is no store unless one may be
    /// created.
    func open(_ location: String, options: StoreOptions) throws -> any MaintainableRepository {
        try SQLiteCartRepository.checkFile(location)
        if !FileInfo(location).hasContent {
            guard options.createIfMissing else { throw StoreLocationError.noStore(location: location) }
            try createParentDirectories(of: location)
        }
        return try SQLiteCartRepository(
            path: location, busyTimeout: options.busyTimeout, initialSettings: options.initialSettings,
            migrate: options.migrate, readers: (try options.checkedMaximumConnections() ?? 1) - 1,
            create: options.createIfMissing)
    }

    /// Creates the directories above `path` that are missing, naming the real problem rather
    /// than SQLite's "unable to open" when one cannot be created (the repository names a
    /// directory in which the file cannot be created).
    private func createParentDirectories(of path: String) throws {
        let parent = FileInfo.parentDirectory(of: path)
        var missing: [String] = []
        var directory = parent
        while !directory.isEmpty, !FileInfo(directory).exists {
            missing.append(directory)
            directory = FileInfo.parentDirectory(of: directory)
        }
        for directory in missing.reversed() where mkdir(directory, 0o777) != 0 && errno != EEXIST {
            let reason = String(cString: strerror(errno))
            throw StoreLocationError.unusable(
                location: path, reason: "its directory '\(directory)' cannot be created (\(reason))")
        }
    }
}
