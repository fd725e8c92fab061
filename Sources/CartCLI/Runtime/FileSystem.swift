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

/// The file-system questions the CLI asks of an import or export file, answered with POSIX
/// calls.
enum FileSystem {
    /// Whether `path` names an existing directory (following symbolic links).
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Whether `a` and `b` name one existing file, by whatever paths or links.
    static func isSameFile(_ a: String, _ b: String) -> Bool {
        var first = stat()
        var second = stat()
        guard stat(a, &first) == 0, stat(b, &second) == 0 else { return false }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }

    /// Whether anything exists at `path`.
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// The most an import reads: far above a catalog of a million products, and far below
    /// what would exhaust memory when `/dev/zero` or an endless pipe is given by mistake.
    static let maximumInputBytes = 256 << 20

    /// The whole file, or a `CommandFailure` naming the problem in one line. A pipe or a device
    /// (`<(command)`, `/dev/stdin`) is read as standard input is.
    static func contents(of path: String) throws -> [UInt8] {
        if isDirectory(path) { throw CommandFailure("'\(DisplayText.clean(path))' is a directory, not a file.") }
        guard exists(path) else { throw CommandFailure("No such file '\(DisplayText.clean(path))'.") }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw CommandFailure("Cannot read '\(DisplayText.clean(path))': \(String(cString: strerror(errno))).")
        }
        defer { close(descriptor) }
        return try readAll(descriptor, "'\(DisplayText.clean(path))'")
    }

    /// Everything on standard input, up to its end.
    static func standardInput() throws -> [UInt8] {
        try readAll(0, "standard input")
    }

    /// Everything `descriptor` holds up to its end, at most `maximumInputBytes`.
    private static func readAll(_ descriptor: Int32, _ name: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw CommandFailure("Cannot read \(name): \(String(cString: strerror(errno))).") }
            if count == 0 { return bytes }
            guard bytes.count + count <= maximumInputBytes else {
                throw CommandFailure(
                    "Cannot read \(name): it holds more than \(maximumInputBytes >> 20) MiB, the most an import reads; split it.")
            }
            bytes += chunk[..<count]
        }
    }

    /// Replaces the file at `path` with `bytes`, or creates it: written to a new file beside it
    /// and renamed over it, so that a reader sees the old file or the whole new one, and a
    /// failed write (a full disk) leaves the old one as it was. As a shell redirection does, it
    /// refuses a file the user may not write (mode 0444, say), and writes through anything at
    /// `path` that is not a regular file (a device, a pipe, a symbolic link): renaming over it
    /// would replace the device or the link itself.
    ///
    /// - Throws: `CommandFailure` naming the file and the system's reason.
    static func replace(_ path: String, with bytes: [UInt8]) throws {
        if isDirectory(path) { throw CommandFailure("'\(DisplayText.clean(path))' is a directory, not a file.") }
        var info = stat()
        let exists = lstat(path, &info) == 0
        if exists, (info.st_mode & S_IFMT) != S_IFREG {
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
            guard descriptor >= 0 else { throw failure("write", path) }
            guard writeAll(bytes, to: descriptor) else {
                let error = failure("write", path)
                close(descriptor)
                throw error
            }
            guard close(descriptor) == 0 else { throw failure("write", path) }
            return
        }
        if exists, faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) != 0 { throw failure("write", path) }
        var template = Array((path + ".tmp-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
        guard descriptor >= 0 else { throw failure("write", path) }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard writeAll(bytes, to: descriptor) else {
            let error = failure("write", path)
            close(descriptor)
            unlink(temporary)
            throw error
        }
        guard fchmod(descriptor, mode(replacing: path)) == 0, fsync(descriptor) == 0, close(descriptor) == 0 else {
            let error = failure("write", path)
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let error = failure("replace", path)
            unlink(temporary)
            throw error
        }
    }

    /// Writes all of `bytes` to `descriptor`; false, with `errno` set, when a write fails.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { return false }
            written += result
        }
        return true
    }

    /// "Cannot `what` 'path': the system's reason (errno)."
    private static func failure(_ what: String, _ path: String) -> CommandFailure {
        CommandFailure("Cannot \(what) '\(DisplayText.clean(path))': \(String(cString: strerror(errno))).")
    }

    /// The permissions a file replacing the one at `path` gets: that file's, so a private
    /// export stays private, or for a new file what `open` would give it under the umask.
    private static func mode(replacing path: String) -> mode_t {
        var info = stat()
        if stat(path, &info) == 0 { return info.st_mode & 0o7777 }
        let mask = umask(0)
        umask(mask)
        return 0o666 & ~mask
    }
}
