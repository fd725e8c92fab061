/// A fixed offset from UTC, such as `+02:00` or `-05:30`: where days begin when order
/// statistics are grouped by day or month.
public struct UTCOffset: Hashable, Sendable, CustomStringConvertible {
    /// Days begin at midnight UTC.
    public static let utc = UTCOffset(checkedMinutes: 0)
    /// The largest offset either way, 23:59, as in ISO 8601 instants.
    public static let maxMinutes = 23 * 60 + 59

    /// Minutes east of UTC; negative west of it.
    public let minutes: Int

    /// The offset `minutes` east of UTC; `nil` beyond 23:59 either way.
    public init?(minutes: Int) {
        guard (-Self.maxMinutes...Self.maxMinutes).contains(minutes) else { return nil }
        self.minutes = minutes
    }

    /// Parses `+HH:MM` or `-HH:MM` (`+02:00`, `-05:30`); `nil` for anything else.
    public init?(parsing text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 6, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"),
            bytes[3] == UInt8(ascii: ":")
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let hours = number(1..<3), hours <= 23, let minutes = number(4..<6), minutes <= 59 else { return nil }
        let sign = bytes[0] == UInt8(ascii: "+") ? 1 : -1
        self.init(checkedMinutes: sign * (hours * 60 + minutes))
    }

    private init(checkedMinutes minutes: Int) {
        self.minutes = minutes
    }

    /// `+02:00`, `-05:30`; `+00:00` for UTC.
    public var description: String {
        let size = minutes.magnitude
        let hours = size / 60
        let rest = size % 60
        return (minutes < 0 ? "-" : "+") + (hours < 10 ? "0" : "") + String(hours) + ":" + (rest < 10 ? "0" : "")
            + String(rest)
    }

    /// The offset in milliseconds, at most a day less one minute either way.
    public var milliseconds: Int64 { Int64(minutes) * 60_000 }
}
