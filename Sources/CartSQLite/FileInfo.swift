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
    /// Why `stat` could not tell whether anything is at the path (a directory above it this
    /// process may not search, a loop of symbolic links), in the system's words; nil when it
    /// could: something is there, or nothing is.
    let unreachableReason: String?

    init(_ path: String) {
        var info = stat()
        if stat(path, &info) == 0 {
            self.info = info
            unreachableReason = nil
        } else {
            let code = errno
            self.info = nil
            unreachableReason = code == ENOENT || code == ENOTDIR ? nil : String(cString: strerror(code))
        }
    }

    /// Whether anything exists at the path.
    var exists: Bool { info != nil }

    /// Whether it is a directory.
    var isDirectory: Bool { info.map { $0.st_mode & S_IFMT == S_IFDIR } ?? false }

    /// Whether it is a regular file.
    var isRegularFile: Bool { info.map { $0.st_mode & S_IFMT == S_IFREG } ?? false }

    /// What changes whenever the file is replaced or written: its identity, size and the
    /// times its content and its inode last changed.
    struct Signature: Equatable {
        let device: UInt64
        let inode: UInt64
        let size: Int64
        let modified: timespec
        let changed: timespec

        static func == (lhs: Signature, rhs: Signature) -> Bool {
            (lhs.device, lhs.inode, lhs.size) == (rhs.device, rhs.inode, rhs.size)
                && (lhs.modified.tv_sec, lhs.modified.tv_nsec) == (rhs.modified.tv_sec, rhs.modified.tv_nsec)
                && (lhs.changed.tv_sec, lhs.changed.tv_nsec) == (rhs.changed.tv_sec, rhs.changed.tv_nsec)
        }
    }

    /// The file's signature, if it exists.
    var signature: Signature? {
        info.map {
            Signature(
                device: UInt64($0.st_dev), inode: UInt64($0.st_ino), size: Int64($0.st_size), modified: $0.st_mtim,
                changed: $0.st_ctim)
        }
    }

    /// Its size in bytes; 0 when nothing exists at the path.
    var size: Int64 { info.map { Int64($0.st_size) } ?? 0 }

    /// How many names (hard links) the file has; 0 when nothing exists at the path.
    var linkCount: Int { info.map { Int($0.st_nlink) } ?? 0 }

    /// Whether it exists and holds at least one byte. SQLite treats an empty file as a database
    /// not created yet.
    var hasContent: Bool { (info?.st_size ?? 0) > 0 }

    /// Whether this process may write the file at `path`, or create and remove files in the
    /// directory at `path` (empty for the current one).
    static func isWritable(_ path: String) -> Bool {
        access(path.isEmpty ? "." : path, W_OK) == 0
    }

    /// `a/b` for `a/b/c.db`, `/` for `/c.db`, empty for `c.db`.
    static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
