import CartCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What an option or argument accepts. The parser checks every value against its kind before
/// any command runs, so a malformed value is a usage error and never reaches the store.
enum ValueKind: Sendable, Equatable {
    /// Any text, passed on as given (the service validates SKUs, names and IDs).
    case text
    /// A non-empty file path.
    case path
    /// A non-empty store location.
    case location
    /// A whole number written with ASCII digits only, within the range.
    case integer(ClosedRange<Int>)
    /// `YYYY-MM-DD` (midnight UTC) or an ISO 8601 instant.
    case date
    /// A decimal amount such as `12.99`, read once the store is open (`CommandRunner.money`),
    /// by the parser that reads amounts everywhere, against the store currency: so an amount
    /// the CLI refuses gets the words the HTTP API gives.
    case amount
    /// One of a fixed set of words.
    case choice([String])
    /// An offset from UTC, `+HH:MM` or `-HH:MM`, up to 23:59 either way.
    case utcOffset

    /// The value as this kind, or why it is not one (a phrase that follows "expected"/"must").
    func parse(_ text: String) -> Result<ParsedValue, ValueProblem> {
        switch self {
        case .text:
            return .success(.text(text))
        case .path:
            return text.isEmpty ? .failure(ValueProblem("expected a file path")) : .success(.text(text))
        case .location:
            return text.isEmpty
                ? .failure(ValueProblem("expected a store location (a file path, memory: or postgresql://…)"))
                : .success(.text(text))
        case .integer(let range):
            return Self.integer(text, in: range).map(ParsedValue.integer)
        case .date:
            guard let date = UTCCalendar.parse(text) else {
                // A local time without its offset names no instant.
                if UTCCalendar.parse(text + "Z") != nil {
                    return .failure(ValueProblem("an instant needs its offset from UTC, such as \(text)Z or \(text)+02:00"))
                }
                return .failure(ValueProblem("expected a date such as 2026-11-29 or 2026-11-29T12:00:00Z"))
            }
            return .success(.date(date))
        case .amount:
            return .success(.text(text))
        case .choice(let words):
            guard words.contains(text) else {
                var problem = "expected one of \(words.joined(separator: ", "))"
                if let match = Suggestion.closest(to: text, in: words) { problem += ". Did you mean '\(match)'?" }
                return .failure(ValueProblem(problem))
            }
            return .success(.text(text))
        case .utcOffset:
            return UTCOffset(parsing: text) == nil
                ? .failure(ValueProblem("expected an offset from UTC such as +02:00 or -05:30, up to 23:59 either way"))
                : .success(.text(text))
        }
    }

    /// Strict decimal: ASCII digits only, no sign, space, exponent, prefix or other numerals,
    /// and no silent wrap-around on overflow.
    static func integer(_ text: String, in range: ClosedRange<Int>) -> Result<Int, ValueProblem> {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return .failure(ValueProblem("expected a whole number written with the digits 0-9"))
        }
        var value = 0
        for byte in bytes {
            let (shifted, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = shifted.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            guard !o1, !o2 else {
                return .failure(ValueProblem("the number is too large; it \(Self.rangeText(range))", isTooLarge: true))
            }
            value = next
        }
        guard range.contains(value) else {
            return .failure(ValueProblem(Self.rangeText(range), isTooLarge: value > range.upperBound))
        }
        return .success(value)
    }

    static func rangeText(_ range: ClosedRange<Int>) -> String {
        range.upperBound == Int.max
            ? "must be a whole number of at least \(range.lowerBound)"
            : "must be a whole number from \(range.lowerBound) to \(range.upperBound)"
    }
}
