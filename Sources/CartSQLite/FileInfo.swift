#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `stat` says of a path (following symbolic links), for deciding how to open it.
struct FileInfo {
    private let info: stat?

    init(_ path: String) {
        var info = stat()
        self.info = stat(path, &info) == 0 ? info : nil
    }

    /// Whether anything exists at the path.
    var exists: Bool { info != nil }

    /// Whether it is a directory.
    var isDirectory: Bool { info.map { $0.st_mode & S_IFMT == S_IFDIR } ?? false }

    /// Whether it is a regular file.
    var isRegularFile: Bool { info.map { $0.st_mode & S_IFMT == S_IFREG } ?? false }

    /// How many names (hard links) the file has; 0 when nothing exists at the path.
    var linkCount: Int { info.map { Int($0.st_nlink) } ?? 0 }

    /// Whether it exists and holds at least one byte. SQLite treats an empty file as a database
    /// not created yet.
    var hasContent: Bool { (info?.st_size ?? 0) > 0 }

    /// `a/b` for `a/b/c.db`, `/` for `/c.db`, empty for `c.db`.
    static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
