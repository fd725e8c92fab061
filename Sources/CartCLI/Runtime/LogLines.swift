#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import CartCore
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Lines written to a file descriptor with one `write` each, from any thread, each after the
/// UTC time it is written (`2026-12-01T21:09:15.123Z 127.0.0.1 GET …`): lines of a pipe never interleave
/// (a write of up to 4 KiB to a pipe is atomic), and none waits in a buffer. For the server's
/// access and error logs on stderr.
struct LogLines: Sendable {
    /// The descriptor written to; the caller keeps it open.
    let descriptor: Int32

    /// Writes the time, `line` and a newline. A failure is dropped: there is nowhere left to
    /// report it.
    func send(_ line: String) {
        var bytes = Array((UTCCalendar.iso8601(Date(), alwaysMilliseconds: true) + " " + line).utf8)
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
