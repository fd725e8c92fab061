import CartCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few file-system questions the CLI asks, answered with POSIX calls.
enum FileSystem {
    /// Whether `path` names an existing directory (following symbolic links).
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Whether something other than a regular file or a directory exists at `path`: a device
    /// such as `/dev/null`, a pipe or a socket (following symbolic links).
    static func isSpecialFile(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        let kind = info.st_mode & S_IFMT
        return kind != S_IFREG && kind != S_IFDIR
    }

    /// Whether anything exists at `path`.
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// Whether `path` exists and holds at least one byte. SQLite, and so `cart`, treats an
    /// empty file as a database not created yet.
    static func hasContent(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_size > 0
    }

    /// Whether this process may write to `path` (for a directory: create files in it).
    static func isWritable(_ path: String) -> Bool {
        access(path, W_OK) == 0
    }

    /// `a/b` for `a/b/c.db`, `/` for `/c.db`, empty for `c.db`.
    static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The whole file, or a `CommandFailure` naming the problem in one line.
    static func contents(of path: String) throws -> [UInt8] {
        if isDirectory(path) { throw CommandFailure("'\(DisplayText.clean(path))' is a directory, not a file.") }
        guard exists(path) else { throw CommandFailure("No such file '\(DisplayText.clean(path))'.") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure("Cannot read '\(DisplayText.clean(path))'.")
        }
        return [UInt8](data)
    }
}
