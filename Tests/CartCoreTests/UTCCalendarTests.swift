import CartCore
import Testing
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// 2026-03-01T00:00:00Z in milliseconds.
private let march1: Int64 = 1_772_323_200_000

@Suite("UTC calendar")
struct UTCCalendarTests {
    private func ms(_ text: String) -> Int64? {
        UTCCalendar.parse(text).map(UTCCalendar.milliseconds)
    }

    @Test(
        "dates and instants parse to the UTC millisecond",
        arguments: [
            ("2026-03-01", march1),
            ("2026-03-01T12:00:00Z", march1 + 43_200_000),
            ("2026-03-01T12:00Z", march1 + 43_200_000),
            ("2026-03-01t12:00:00z", march1 + 43_200_000),
            ("2026-03-01 12:00:00Z", march1 + 43_200_000),
            ("2026-03-01T14:30:00+02:30", march1 + 43_200_000),
            ("2026-03-01T07:00:00-05:00", march1 + 43_200_000),
            ("2026-03-01T00:30:00+01:00", march1 - 1_800_000),
            ("2026-03-01T12:00:00.5Z", march1 + 43_200_500),
            ("2026-03-01T12:00:00.123Z", march1 + 43_200_123),
            ("2026-03-01T12:00:00.123999Z", march1 + 43_200_123),
            ("1970-01-01T00:00:00Z", 0),
            ("1969-12-31T23:59:59.999Z", -1),
            ("2024-02-29", 1_709_164_800_000),
            ("2000-02-29", 951_782_400_000),
        ] as [(String, Int64)])
    func parses(_ text: String, _ milliseconds: Int64) {
        #expect(ms(text) == milliseconds)
    }

    @Test(
        "anything that is not a real date or instant is refused",
        arguments: [
            "2026-13-01", "2026-00-10", "2026-02-29", "1900-02-29", "2026-04-31", "2026-01-32", "yesterday", "",
            "2026-3-1", "26-03-01", "2026/03/01", "2026-03-01T24:00Z", "2026-03-01T12:60Z", "2026-03-01T12:00:60Z",
            "2026-03-01T12:00:00", "2026-03-01T12:00:00.Z", "2026-03-01T12:00:00+2:00", "2026-03-01T12:00:00+24:00",
            "2026-03-01T12:00:00Z ", " 2026-03-01", "2026-03-01T", "２０２６-03-01",
        ])
    func refuses(_ text: String) {
        #expect(UTCCalendar.parse(text) == nil)
    }

    @Test(
        "ISO 8601 text shows milliseconds only when there are some",
        arguments: [
            (0, "1970-01-01T00:00:00Z"), (-1, "1969-12-31T23:59:59.999Z"),
            (march1 + 43_200_000, "2026-03-01T12:00:00Z"), (march1 + 43_200_123, "2026-03-01T12:00:00.123Z"),
            (march1 + 43_200_001, "2026-03-01T12:00:00.001Z"), (1_709_251_199_999, "2024-02-29T23:59:59.999Z"),
            (253_402_300_799_000, "9999-12-31T23:59:59Z"),
        ] as [(Int64, String)])
    func formats(_ milliseconds: Int64, _ text: String) {
        #expect(UTCCalendar.iso8601(UTCCalendar.date(milliseconds: milliseconds)) == text)
    }

    @Test("an instant survives formatting and parsing to the millisecond")
    func roundTrip() throws {
        var samples: [Int64] = [0, 1, -1, 999, -999, 1_000, march1, march1 + 43_200_123, 4_102_444_799_999]
        for step: Int64 in stride(from: 1, through: 5_000, by: 1) { samples.append(march1 + step * 86_399_001 + step % 1000) }
        for step: Int64 in stride(from: 1, through: 2_000, by: 1) { samples.append(-step * 3_600_007) }
        for milliseconds in samples {
            let date = UTCCalendar.date(milliseconds: milliseconds)
            #expect(UTCCalendar.milliseconds(date) == milliseconds)
            let text = UTCCalendar.iso8601(date)
            #expect(try #require(ms(text)) == milliseconds, "\(text)")
        }
    }

    @Test("milliseconds round down, also before the epoch")
    func floorMilliseconds() {
        #expect(UTCCalendar.milliseconds(Date(timeIntervalSince1970: 0.0009)) == 0)
        #expect(UTCCalendar.milliseconds(Date(timeIntervalSince1970: -0.0005)) == -1)
        #expect(UTCCalendar.milliseconds(Date(timeIntervalSince1970: 1.5)) == 1_500)
    }

    @Test(
        "day and month keys follow the UTC calendar around the epoch",
        arguments: [
            (0, "1970-01-01", "1970-01"), (-1, "1969-12-31", "1969-12"), (86_399_999, "1970-01-01", "1970-01"),
            (86_400_000, "1970-01-02", "1970-01"), (-86_400_000, "1969-12-31", "1969-12"),
            (-86_400_001, "1969-12-30", "1969-12"), (1_709_251_199_999, "2024-02-29", "2024-02"),
            (1_709_251_200_000, "2024-03-01", "2024-03"), (march1 - 1, "2026-02-28", "2026-02"),
            (-2_208_988_800_000, "1900-01-01", "1900-01"),
        ] as [(Int64, String, String)])
    func keys(_ milliseconds: Int64, _ day: String, _ month: String) {
        #expect(UTCCalendar.dayKey(milliseconds: milliseconds) == day)
        #expect(UTCCalendar.monthKey(milliseconds: milliseconds) == month)
    }

    @Test("day and month keys at the ends of the stored days, and beyond, are well formed")
    func keysAtTheEnds() {
        #expect(UTCCalendar.dayKey(day: StoredRange.day.lowerBound) == "-0001-12-31")
        #expect(UTCCalendar.dayKey(day: StoredRange.day.upperBound) == "10000-01-01")
        #expect(UTCCalendar.monthKey(day: StoredRange.day.lowerBound) == "-0001-12")
        #expect(UTCCalendar.dayKey(day: .min) == "-0001-12-31")
        #expect(UTCCalendar.dayKey(day: .max) == "10000-01-01")
        #expect(UTCCalendar.monthKey(day: .max) == "10000-01")
        #expect(UTCCalendar.dayKey(day: 0) == "1970-01-01")
    }

    @Test("civil dates and day numbers convert both ways for four centuries")
    func civilRoundTrip() {
        for days in stride(from: -80_000, through: 80_000, by: 7) {
            let c = UTCCalendar.components(milliseconds: Int64(days) * 86_400_000)
            #expect(UTCCalendar.daysFromCivil(year: c.year, month: c.month, day: c.day) == days)
            #expect(c.hour == 0 && c.minute == 0 && c.second == 0 && c.millisecond == 0)
        }
    }

    @Test("a UTC offset parses as ±HH:MM up to 23:59 and prints back the same", arguments: ["+02:00", "-05:30", "+00:00", "-00:01", "+23:59", "-23:59", "+14:00"])
    func offsetRoundTrip(_ text: String) throws {
        #expect(try #require(UTCOffset(parsing: text)).description == text)
    }

    @Test("anything but ±HH:MM up to 23:59 is not a UTC offset", arguments: ["", "2", "02:00", "+2:00", "+0200", "+02:0", "+24:00", "+02:60", "Z", "UTC", "+02:00 ", "−02:00", "+٠٢:٠٠"])
    func offsetRefused(_ text: String) {
        #expect(UTCOffset(parsing: text) == nil)
    }

    @Test("a day at an offset begins at that offset's midnight, for every Int64 without overflow")
    func daysAtOffset() throws {
        let plusTwo = try #require(UTCOffset(parsing: "+02:00"))
        let minusTwo = try #require(UTCOffset(parsing: "-02:00"))
        let march1Day = march1 / 86_400_000
        #expect(UTCCalendar.day(milliseconds: march1 - 7_200_000, offset: plusTwo) == march1Day)
        #expect(UTCCalendar.day(milliseconds: march1 - 7_200_001, offset: plusTwo) == march1Day - 1)
        #expect(UTCCalendar.day(milliseconds: march1 + 7_199_999, offset: minusTwo) == march1Day - 1)
        #expect(UTCCalendar.day(milliseconds: march1 + 7_200_000, offset: minusTwo) == march1Day)
        #expect(UTCCalendar.day(milliseconds: -1) == -1)
        #expect(UTCCalendar.dayKey(day: march1Day) == "2026-03-01" && UTCCalendar.monthKey(day: march1Day) == "2026-03")
        let widest = [UTCOffset.maxMinutes, -UTCOffset.maxMinutes].compactMap { UTCOffset(minutes: $0) }
        #expect(widest.count == 2 && UTCOffset(minutes: UTCOffset.maxMinutes + 1) == nil && UTCOffset(minutes: .min) == nil)
        for offset in widest {
            for milliseconds in [Int64.max, Int64.min, Int64.max - 1, Int64.min + 1] {
                let day = UTCCalendar.day(milliseconds: milliseconds, offset: offset)
                let utcDay = milliseconds / 86_400_000 - (milliseconds % 86_400_000 < 0 ? 1 : 0)
                #expect(abs(day - utcDay) <= 1)
                #expect(!UTCCalendar.dayKey(day: day).isEmpty && !UTCCalendar.monthKey(day: day).isEmpty)
            }
        }
    }
}
