#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Exact UTC calendar arithmetic for the project's timestamps, without locale or time-zone
/// databases: stored instants are whole milliseconds since 1970-01-01T00:00:00Z.
public enum UTCCalendar {
    /// A civil date and time in UTC.
    public struct Components: Hashable, Sendable {
        public var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millisecond: Int
    }

    /// Whole milliseconds since the Unix epoch, rounded down.
    public static func milliseconds(_ date: Date) -> Int64 {
        // Round to the microsecond before flooring: `date(milliseconds:)` goes through binary
        // floating point, so 0.999 s can come back as 0.998999…, and flooring that directly
        // would lose a millisecond on every store-and-read round trip.
        let micro = (date.timeIntervalSince1970 * 1_000_000).rounded()
        guard micro > -9.2e18, micro < 9.2e18 else { return micro < 0 ? Int64.min / 2 : Int64.max / 2 }
        let microseconds = Int64(micro)
        return microseconds >= 0 ? microseconds / 1000 : (microseconds - 999) / 1000
    }

    /// The instant `milliseconds` after the Unix epoch.
    public static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// Days since 1970-01-01 of a civil date (proleptic Gregorian; H. Hinnant's algorithm).
    public static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
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
    public static func dayKey(day: Int64) -> String {
        let date = civil(days: Int(day))
        return "\(pad(date.year, 4))-\(pad(date.month, 2))-\(pad(date.day, 2))"
    }

    /// `2026-11`: the month of a day counted from 1970-01-01, as `day(milliseconds:offset:)` counts.
    public static func monthKey(day: Int64) -> String {
        let date = civil(days: Int(day))
        return "\(pad(date.year, 4))-\(pad(date.month, 2))"
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (H. Hinnant's algorithm).
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
    /// `YYYY-MM-DDTHH:MM[:SS[.fff]](Z|±HH:MM)`; `nil` for anything else, such as `2026-13-01`.
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
        if expect(":") {
            guard let s = number(2), s < 60 else { return nil }
            second = s
            if expect(".") {
                var digits = 0
                while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                    if digits < 3 { fraction = fraction * 10 + Int(bytes[index] - UInt8(ascii: "0")) }
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
        return index == bytes.count ? date(milliseconds: ms) : nil
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
