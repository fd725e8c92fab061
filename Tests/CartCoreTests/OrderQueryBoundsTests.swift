import CartCore
import Testing
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An order of one line placed at `milliseconds` since the epoch, as a backend reads it back.
private func order(_ number: Int64, at milliseconds: Int64) -> Order {
    let price = Money(minorUnits: 100, currency: .usd)
    return Order(
        number: OrderNumber(rawValue: number), cartID: "alice", placedAt: UTCCalendar.date(milliseconds: milliseconds),
        currency: .usd, totalItems: 1, total: price, idempotencyKey: nil,
        lines: [OrderLine(sku: "apple", name: "Apple", unitPrice: price, quantity: 1, lineTotal: price)])
}

/// 2026-03-01T12:00:00Z in milliseconds.
private let noon: Int64 = 1_772_366_400_000

@Suite("Order time filters at the stored precision")
struct OrderQueryBoundsTests {
    private func instant(_ text: String) throws -> Date {
        try #require(UTCCalendar.parse(text), "\(text)")
    }

    @Test(
        "--since and --until compare every fraction digit against whole stored milliseconds",
        arguments: [
            // (bound, an order placed at this millisecond, passes --since, passes --until)
            ("2026-03-01T12:00:00.0009Z", noon, false, true),
            ("2026-03-01T12:00:00.0009Z", noon + 1, true, false),
            ("2026-03-01T12:00:00.0001Z", noon, false, true),
            ("2026-03-01T12:00:00.0001Z", noon + 1, true, false),
            ("2026-03-01T12:00:00.000000000000000000001Z", noon, false, true),
            ("2026-03-01T12:00:00.0009999999999999999999Z", noon + 1, true, false),
            ("2026-03-01T12:00:00.9999Z", noon + 999, false, true),
            ("2026-03-01T12:00:00.9999Z", noon + 1000, true, false),
            ("2026-03-01T12:00:00.000Z", noon, true, false),
            ("2026-03-01T12:00:00Z", noon - 1, false, true),
            ("2026-03-01T12:00:00.0000Z", noon, true, false),
            ("1969-12-31T23:59:59.9991Z", -1, false, true),
            ("1969-12-31T23:59:59.9991Z", 0, true, false),
            ("1969-12-31T23:59:59.999Z", -1, true, false),
            ("1969-12-31T23:59:59.9989Z", -2, false, true),
            ("1969-12-31T23:59:59.9989Z", -1, true, false),
            ("1900-01-01T00:00:00.0005Z", -2_208_988_800_000, false, true),
            ("1900-01-01T00:00:00.0005Z", -2_208_988_799_999, true, false),
            ("2026-03-01T13:00:00.0009+01:00", noon, false, true),
        ] as [(String, Int64, Bool, Bool)])
    func bounds(_ text: String, _ placed: Int64, _ passesSince: Bool, _ passesUntil: Bool) throws {
        let bound = try instant(text)
        let placedOrder = order(1, at: placed)
        #expect(OrderQuery(placedOnOrAfter: bound).includes(placedOrder) == passesSince, "since \(text)")
        #expect(OrderQuery(placedBefore: bound).includes(placedOrder) == passesUntil, "until \(text)")
        #expect(OrderQuery(placedOnOrAfter: bound).select(from: [placedOrder]).count == (passesSince ? 1 : 0))
    }

    @Test("both bounds are the instant rounded up to the whole millisecond")
    func millisecondBounds() throws {
        let query = OrderQuery(
            placedOnOrAfter: try instant("2026-03-01T12:00:00.0009Z"), placedBefore: try instant("2026-03-01T12:00:01Z"))
        #expect(query.placedMillisecondBounds.onOrAfter == noon + 1)
        #expect(query.placedMillisecondBounds.before == noon + 1000)
        #expect(OrderQuery().placedMillisecondBounds.onOrAfter == nil)
        #expect(OrderQuery().placedMillisecondBounds.before == nil)
    }

    @Test("rounding up and down agree on whole milliseconds, also a floating-point step off, and differ by one in between")
    func ceilingAndFloor() throws {
        for milliseconds: Int64 in [0, 1, -1, 999, -999, noon, noon + 123, -2_208_988_800_001, 253_402_300_799_998] {
            let date = UTCCalendar.date(milliseconds: milliseconds)
            let interval = date.timeIntervalSinceReferenceDate
            for noisy in [interval, interval.nextUp, interval.nextDown, interval.nextUp.nextUp, interval.nextDown.nextDown] {
                let same = Date(timeIntervalSinceReferenceDate: noisy)
                #expect(UTCCalendar.milliseconds(same) == milliseconds, "\(milliseconds)")
                #expect(UTCCalendar.ceilingMilliseconds(same) == milliseconds, "\(milliseconds)")
            }
            let between = date.addingTimeInterval(0.000_5)
            #expect(UTCCalendar.milliseconds(between) == milliseconds)
            #expect(UTCCalendar.ceilingMilliseconds(between) == milliseconds + 1)
        }
    }

    @Test("a clock moved by whole milliseconds stamps the millisecond it means")
    func clockArithmetic() {
        let start = Date(timeIntervalSince1970: 1_772_366_400)
        for step in 0..<5_000 {
            let offset = Double(step) * 0.037
            let expected = 1_772_366_400_000 + Int64((offset * 1000).rounded())
            let moved = start.addingTimeInterval(offset)
            #expect(UTCCalendar.milliseconds(moved) == expected, "\(offset)")
            #expect(UTCCalendar.ceilingMilliseconds(moved) == expected, "\(offset)")
        }
        #expect(UTCCalendar.milliseconds(start.addingTimeInterval(99.999)) == 1_772_366_499_999)
    }

    @Test("instants outside years 0000 to 9999 round to the range's ends, never trap")
    func outsideTheRange() {
        let range = UTCCalendar.millisecondRange
        for seconds in [1e300, -1e300, Double.infinity, -Double.infinity, Double.nan, 9.3e15, -9.3e15] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(range.contains(UTCCalendar.milliseconds(date)), "\(seconds)")
            let ceiling = UTCCalendar.ceilingMilliseconds(date)
            #expect(ceiling >= range.lowerBound && ceiling <= range.upperBound + 1, "\(seconds)")
        }
        let far = OrderQuery(placedBefore: Date(timeIntervalSince1970: 1e300))
        #expect(far.includes(order(1, at: range.upperBound)))
        #expect(OrderQuery(placedOnOrAfter: Date(timeIntervalSince1970: -1e300)).includes(order(1, at: range.lowerBound)))
    }

    @Test("every stored millisecond of years 1 to 9999 survives the round trip through Date")
    func roundTripAcrossTheRange() {
        let range = UTCCalendar.millisecondRange
        var milliseconds = range.lowerBound
        while milliseconds < range.upperBound - 1_000_003_777 {
            for offset: Int64 in [0, 1, 999] {
                #expect(UTCCalendar.milliseconds(UTCCalendar.date(milliseconds: milliseconds + offset)) == milliseconds + offset)
            }
            milliseconds += 1_000_003_777_777
        }
        #expect(UTCCalendar.milliseconds(UTCCalendar.date(milliseconds: range.upperBound)) == range.upperBound)
    }
}
