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

/// The file-system questions the CLI asks of an import file, answered with POSIX calls.
enum FileSystem {
    /// Whether `path` names an existing directory (following symbolic links).
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Whether anything exists at `path`.
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
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
