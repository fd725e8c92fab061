#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import CartCore

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
        var bytes = Self.timestamp()
        bytes.append(UInt8(ascii: " "))
        bytes += line.utf8
        bytes.append(UInt8(ascii: "\n"))
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            sent += count
        }
    }

    /// Now as `2026-12-01T21:09:15.123Z`, in UTF-8, written digit by digit rather than through
    /// intermediate strings: every request writes one.
    static func timestamp() -> [UInt8] {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let c = UTCCalendar.components(milliseconds: Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(128)
        func append(_ value: Int, width: Int) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                divisor /= 10
            }
        }
        let fields: [(value: Int, width: Int, separator: Unicode.Scalar)] = [
            (c.year, 4, "-"), (c.month, 2, "-"), (c.day, 2, "T"), (c.hour, 2, ":"), (c.minute, 2, ":"),
            (c.second, 2, "."), (c.millisecond, 3, "Z"),
        ]
        for (value, width, separator) in fields {
            append(value, width: width)
            bytes.append(UInt8(ascii: separator))
        }
        return bytes
    }
}
