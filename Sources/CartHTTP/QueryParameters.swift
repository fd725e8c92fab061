#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CartCore
import HTTPServer

/// A request's query parameters, read with the API's rules: only the names a route
/// documents, each at most once, each value of its documented type.
struct QueryParameters {
    private let values: [String: String]

    /// Reads `query`, refusing a name outside `allowed` or one given twice.
    ///
    /// - Throws: 400 `unknown_query_parameter` or `invalid_query_parameter`.
    init(_ query: HTTPQuery, allowed: [String]) throws(APIError) {
        var values: [String: String] = [:]
        for (name, value) in query.items {
            guard allowed.contains(name) else {
                let known = allowed.isEmpty ? "this resource takes none" : "known: " + allowed.joined(separator: ", ")
                throw .badRequest(
                    "unknown_query_parameter", "Unknown query parameter '\(DisplayText.clean(name))'; \(known).")
            }
            guard values.updateValue(value, forKey: name) == nil else {
                throw .badRequest("invalid_query_parameter", "The query parameter '\(name)' is given more than once.")
            }
        }
        self.values = values
    }

    /// The text of a parameter; nil when absent.
    func string(_ name: String) -> String? {
        values[name]
    }

    /// The text of a parameter that may not be empty; nil when absent.
    func nonEmptyString(_ name: String, _ what: String) throws(APIError) -> String? {
        guard let text = values[name] else { return nil }
        guard !text.isEmpty else { throw Self.invalid(name, text, what) }
        return text
    }

    /// A whole number within `range`; nil when absent.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(APIError) -> Int? {
        guard let text = values[name] else { return nil }
        // Written as JSON and paths write numbers: no sign, no leading zeros.
        guard let number = Int(text), range.contains(number), String(number) == text else {
            let bounds = range.upperBound == Int.max ? "of at least \(range.lowerBound)" : "from \(range.lowerBound) to \(range.upperBound)"
            throw Self.invalid(name, text, "a whole number \(bounds)", tooLarge: Self.isTooLargeNumber(text))
        }
        return number
    }

    /// Whether `text` is a number written as JSON and paths write it (digits, no leading zero)
    /// that is too large for 64 bits: its fault is its size, not its form.
    static func isTooLargeNumber(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.first != UInt8(ascii: "0")
            && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } && Int(text) == nil
    }

    /// `true` or `false`; nil when absent.
    func bool(_ name: String) throws(APIError) -> Bool? {
        switch values[name] {
        case nil: return nil
        case "true": return true
        case "false": return false
        case let text?: throw Self.invalid(name, text, "true or false")
        }
    }

    /// A UTC date (`2026-11-29`) or ISO 8601 instant; nil when absent.
    func date(_ name: String) throws(APIError) -> Date? {
        guard let text = values[name] else { return nil }
        guard let date = UTCCalendar.parse(text) else {
            // A local time without its offset names no instant.
            let hint = UTCCalendar.parse(text + "Z") != nil ? ", with its offset from UTC (Z or %2B02:00)" : ""
            throw Self.invalid(name, text, "a date such as 2026-11-29 or an instant such as 2026-11-29T12:00:00Z" + hint)
        }
        return date
    }

    /// An offset from UTC, `+02:00` or `-05:30`; nil when absent. A `+` in a query string
    /// is a space, so the offset east of UTC is written `%2B02:00`.
    func utcOffset(_ name: String) throws(APIError) -> UTCOffset? {
        guard let text = values[name] else { return nil }
        guard let offset = UTCOffset(parsing: text) else {
            throw Self.invalid(name, text, "an offset from UTC such as %2B02:00 (+02:00; a + in a query is a space) or -05:30")
        }
        return offset
    }

    private static func invalid(_ name: String, _ text: String, _ expected: String, tooLarge: Bool = false) -> APIError {
        .badRequest(
            "invalid_query_parameter",
            "The query parameter '\(name)' must be \(expected); got '\(DisplayText.clean(text))'\(tooLarge ? ", which is too large" : "").")
    }
}
