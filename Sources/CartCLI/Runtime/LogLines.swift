#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Lines written to a file descriptor with one `write` each, from any thread: lines of a pipe
/// never interleave (a write of up to 4 KiB to a pipe is atomic), and none waits in a buffer.
/// For the server's access and error logs on stderr.
struct LogLines: Sendable {
    /// The descriptor written to; the caller keeps it open.
    let descriptor: Int32

    /// Writes `line` and a newline. A failure is dropped: there is nowhere left to report it.
    func send(_ line: String) {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            sent += count
        }
    }
}
