#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Exact UTC calendar arithmetic for the project's timestamps, without locale or time-zone
/// databases: stored instants are whole milliseconds since 1970-01-01T00:00:00Z.
public enum UTCCalendar {
    /// A civil date and time in UTC, as `components(milliseconds:)` gives it.
    public struct Components: Hashable, Sendable {
        /// The year, 0 to 9999.
        public var year: Int
        /// The month, 1 to 12.
        public var month: Int
        /// The day of the month, from 1.
        public var day: Int
        /// The hour, 0 to 23.
        public var hour: Int
        /// The minute, 0 to 59.
        public var minute: Int
        /// The second, 0 to 59.
        public var second: Int
        /// The millisecond, 0 to 999.
        public var millisecond: Int
    }

    /// The stored instants the calendar works with, in milliseconds since the epoch: from
    /// 0000-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z, the years `parse` reads and
    /// `iso8601` writes in four digits. Each of them survives `date(milliseconds:)` and
    /// `milliseconds(_:)` exactly.
    public static let millisecondRange: ClosedRange<Int64> = -62_167_219_200_000...253_402_300_799_999

    /// Whole milliseconds since the Unix epoch, rounded down: the latest millisecond whose
    /// instant (`date(milliseconds:)`) is not after `date`. An instant outside
    /// `millisecondRange` gives the range's nearer end.
    public static func milliseconds(_ date: Date) -> Int64 {
        let seconds = date.timeIntervalSince1970
        let limit = seconds + tolerance(seconds)
        let estimate = (limit * 1000).rounded(.down)
        guard estimate > Double(millisecondRange.lowerBound) else { return millisecondRange.lowerBound }
        guard estimate < Double(millisecondRange.upperBound) else { return millisecondRange.upperBound }
        // The product's own rounding can put the estimate one off either way.
        var milliseconds = Int64(estimate)
        if Double(milliseconds) / 1000 > limit {
            milliseconds -= 1
        } else if Double(milliseconds + 1) / 1000 <= limit {
            milliseconds += 1
        }
        return milliseconds
    }

    /// Whole milliseconds since the Unix epoch, rounded up: the earliest millisecond whose
    /// instant is not before `date`. This is the bound that compares an instant with stored
    /// milliseconds exactly: a stored instant `p` is at or after `date` exactly when
    /// `p >= ceilingMilliseconds(date)`, and before it exactly when `p < ceilingMilliseconds(date)`.
    /// An instant outside `millisecondRange` gives the range's lower end, or its upper end + 1.
    public static func ceilingMilliseconds(_ date: Date) -> Int64 {
        let seconds = date.timeIntervalSince1970
        let limit = seconds - tolerance(seconds)
        let estimate = (limit * 1000).rounded(.up)
        guard estimate > Double(millisecondRange.lowerBound) else { return millisecondRange.lowerBound }
        guard estimate <= Double(millisecondRange.upperBound) else { return millisecondRange.upperBound + 1 }
        var milliseconds = Int64(estimate)
        if Double(milliseconds) / 1000 < limit {
            milliseconds += 1
        } else if Double(milliseconds - 1) / 1000 >= limit {
            milliseconds -= 1
        }
        return milliseconds
    }

    /// How far apart two instants `seconds` from the epoch may be and still be one instant:
    /// a `Date` keeps its seconds in binary floating point, so 0.999 s is 0.998999…, and a
    /// clock moved by 99.999 s can land a step below the millisecond it means. A microsecond
    /// near now, it grows with the distance from the epoch (0.2 ms in year 9999), always far
    /// below a millisecond.
    private static func tolerance(_ seconds: Double) -> Double {
        max(0.000_001, abs(seconds) * 4 * Double.ulpOfOne)
    }

    /// The instant `milliseconds` after the Unix epoch.
    public static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// Days since 1970-01-01 of a civil date (proleptic Gregorian; H. Hinnant's algorithm), for
    /// the years of four digits the callers parse; a year near `Int.max` would overflow (package
    /// access).
    package static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The civil date and time of an instant given in milliseconds since the epoch.
    public static func components(milliseconds: Int64) -> Components {
        let ms = Int(milliseconds)
        var days = ms / 86_400_000
        var rest = ms % 86_400_000
        if rest < 0 {
            rest += 86_400_000
            days -= 1
        }
        let (year, month, day) = civil(days: days)
        return Components(
            year: year, month: month, day: day, hour: rest / 3_600_000, minute: rest / 60_000 % 60,
            second: rest / 1000 % 60, millisecond: rest % 1000)
    }

    /// Whole days since 1970-01-01 of an instant, the days beginning at midnight at `offset`;
    /// exact for every `Int64`, with no overflow.
    public static func day(milliseconds: Int64, offset: UTCOffset = .utc) -> Int64 {
        var (days, rest) = milliseconds.quotientAndRemainder(dividingBy: 86_400_000)
        if rest < 0 {
            rest += 86_400_000
            days -= 1
        }
        // `rest` is in 0..<86_400_000 and the offset under a day either way.
        let shifted = rest + offset.milliseconds
        return days + (shifted < 0 ? -1 : shifted >= 86_400_000 ? 1 : 0)
    }

    /// `2026-11-29`: the date of a day counted from 1970-01-01, as `day(milliseconds:offset:)` counts.
    /// The days of stored instants at any offset (`StoredRange.day`) run from `-0001-12-31` to
    /// `10000-01-01`; a day beyond them is read as the nearer end.
    public static func dayKey(day: Int64) -> String {
        let date = civil(storedDay: day)
        return "\(pad(date.year, 4))-\(pad(date.month, 2))-\(pad(date.day, 2))"
    }

    /// `2026-11`: the month of a day counted from 1970-01-01, as `day(milliseconds:offset:)`
    /// counts, and within the days `dayKey(day:)` reads.
    public static func monthKey(day: Int64) -> String {
        let date = civil(storedDay: day)
        return "\(pad(date.year, 4))-\(pad(date.month, 2))"
    }

    /// The date of `day`, or of the nearer end of `StoredRange.day` for a day beyond it.
    private static func civil(storedDay day: Int64) -> (year: Int, month: Int, day: Int) {
        civil(days: Int(min(max(day, StoredRange.day.lowerBound), StoredRange.day.upperBound)))
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (H. Hinnant's algorithm),
    /// for any day of an `Int64` of milliseconds.
    private static func civil(days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// `2026-11-29T12:00:00Z` (with `.123` milliseconds when they are not zero).
    public static func iso8601(_ date: Date) -> String {
        let c = components(milliseconds: milliseconds(date))
        var text = "\(pad(c.year, 4))-\(pad(c.month, 2))-\(pad(c.day, 2))T"
        text += "\(pad(c.hour, 2)):\(pad(c.minute, 2)):\(pad(c.second, 2))"
        if c.millisecond != 0 { text += "." + pad(c.millisecond, 3) }
        return text + "Z"
    }

    /// `2026-11-29`: the UTC day of an instant.
    public static func dayKey(milliseconds: Int64) -> String {
        let c = components(milliseconds: milliseconds)
        return "\(pad(c.year, 4))-\(pad(c.month, 2))-\(pad(c.day, 2))"
    }

    /// `2026-11`: the UTC month of an instant.
    public static func monthKey(milliseconds: Int64) -> String {
        let c = components(milliseconds: milliseconds)
        return "\(pad(c.year, 4))-\(pad(c.month, 2))"
    }

    /// Parses `YYYY-MM-DD` (midnight UTC) or an ISO 8601 instant
    /// `YYYY-MM-DDTHH:MM[:SS[.fff…]](Z|±HH:MM)`; `nil` for anything else, such as `2026-13-01`.
    ///
    /// Every fraction digit counts: an instant with digits below the millisecond
    /// (`…00.0009Z`, `…00.000000001Z`) lies between the two milliseconds around it, so it
    /// compares after the one and before the other (see `ceilingMilliseconds(_:)`).
    public static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ width: Int) -> Int? {
            guard index + width <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + width] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            index += width
            return value
        }
        func expect(_ character: Character) -> Bool {
            guard index < bytes.count, let ascii = character.asciiValue, bytes[index] == ascii else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day)
        else { return nil }
        var ms = Int64(daysFromCivil(year: year, month: month, day: day)) * 86_400_000
        if index == bytes.count { return date(milliseconds: ms) }
        guard expect("T") || expect("t") || expect(" "), let hour = number(2), hour < 24, expect(":"),
            let minute = number(2), minute < 60
        else { return nil }
        var second = 0
        var fraction = 0
        // The digits after the third, as a fraction of a millisecond; only whether they are
        // zero must be exact.
        var belowMillisecond = 0.0
        var hasDigitsBelowMillisecond = false
        if expect(":") {
            guard let s = number(2), s < 60 else { return nil }
            second = s
            if expect(".") {
                var digits = 0
                var scale = 0.1
                while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                    let digit = Int(bytes[index] - UInt8(ascii: "0"))
                    if digits < 3 {
                        fraction = fraction * 10 + digit
                    } else {
                        belowMillisecond += Double(digit) * scale
                        scale /= 10
                        if digit != 0 { hasDigitsBelowMillisecond = true }
                    }
                    digits += 1
                    index += 1
                }
                guard digits > 0 else { return nil }
                for _ in min(digits, 3)..<3 { fraction *= 10 }
            }
        }
        ms += Int64(((hour * 60 + minute) * 60 + second) * 1000 + fraction)
        if expect("Z") || expect("z") {
        } else if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign: Int64 = bytes[index] == UInt8(ascii: "+") ? 1 : -1
            index += 1
            guard let oh = number(2), oh <= 23, expect(":"), let om = number(2), om < 60 else { return nil }
            ms -= sign * Int64((oh * 60 + om) * 60_000)
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        return hasDigitsBelowMillisecond ? instant(after: ms, by: belowMillisecond) : date(milliseconds: ms)
    }

    /// The instant `fraction` (0 < fraction < 1) of a millisecond after millisecond `ms`, kept
    /// clearly between the instants of `ms` and `ms + 1` (beyond the `tolerance` of either),
    /// where binary floating point cannot hold the digits themselves.
    private static func instant(after ms: Int64, by fraction: Double) -> Date {
        let start = Double(ms) / 1000
        let end = Double(ms + 1) / 1000
        let margin = 2 * tolerance(start)
        return Date(timeIntervalSince1970: min(max(start + fraction / 1000, start + margin), end - margin))
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// `value` in at least `width` digits, after its sign: `0007`, `-0001`.
    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value.magnitude)
        let padded = digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
        return value < 0 ? "-" + padded : padded
    }
}
