import CartCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension SQLiteCartRepository {
    /// Refuses a path that cannot name a database file: an empty one, a directory, or something
    /// that is not a regular file (a device, a pipe, a socket); and one this process cannot
    /// reach or read, which would otherwise pass for a store not made yet.
    ///
    /// - Throws: `StoreLocationError.unusable` naming `path` as given.
    static func checkFile(_ path: String) throws(StoreLocationError) {
        guard !path.isEmpty else { throw .unusable(location: path, reason: "the path is empty") }
        let file = FileInfo(path)
        if let reason = file.unreachableReason {
            throw .unusable(location: path, reason: "this user cannot reach it (\(reason)); check the directories above it")
        }
        if file.isRegularFile, access(path, R_OK) != 0 {
            throw .unusable(location: path, reason: "this user may not read the file (\(String(cString: strerror(errno))))")
        }
        if file.isDirectory { throw .unusable(location: path, reason: "it is a directory") }
        if path.hasSuffix("/") { throw .unusable(location: path, reason: "a path ending in '/' names a directory, not a file") }
        if file.exists, !file.isRegularFile {
            throw .unusable(location: path, reason: "it is not a regular file (a device, pipe or socket)")
        }
    }

    /// Refuses a path where SQLite could neither open nor create the file, naming the file and
    /// the cause, where SQLite itself says only "unable to open database file": a directory
    /// above it that is missing or is not a directory, or, for a file that does not exist yet,
    /// a directory this process cannot write.
    ///
    /// - Throws: `StoreLocationError.unusable` naming `path` as given; `.unexpandedHome` for a
    ///   missing directory whose path starts as a home directory a shell would have expanded
    ///   (`~/shop.sqlite3`), which the store registry refuses before it opens anything.
    static func checkDirectory(of path: String) throws(StoreLocationError) {
        let parent = FileInfo.parentDirectory(of: path)
        let directory = parent.isEmpty ? "." : parent
        let info = FileInfo(directory)
        guard info.exists else {
            if StoreRegistry.startsWithUnexpandedHome(path) { throw .unexpandedHome(location: path) }
            throw .unusable(location: path, reason: "its directory '\(DisplayText.clean(directory))' does not exist")
        }
        guard info.isDirectory else {
            throw .unusable(location: path, reason: "'\(DisplayText.clean(directory))' is not a directory")
        }
        if !FileInfo(path).exists, access(directory, W_OK | X_OK) != 0 {
            throw .unusable(location: path, reason: "the directory '\(DisplayText.clean(directory))' is not writable")
        }
    }
}
