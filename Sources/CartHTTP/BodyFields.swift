import CartCore
import StrictJSON

/// The members of a request's JSON object body, read one field at a time with the API's
/// rules: only the fields a route names, each of the JSON type it documents.
struct BodyFields: Sendable {
    /// The body's object, whose keys are unique.
    private let object: JSONValue

    /// No fields: a body that is absent.
    static let none = BodyFields(object: .object([]))

    /// Request bodies are flat objects: a nested value is a field of the wrong type, named as
    /// such, while nesting past this bound is refused as malformed before it costs anything.
    static let maxDepth = 32

    private init(object: JSONValue) {
        self.object = object
    }

    /// Reads `body` as one JSON object holding no field outside `allowed`.
    ///
    /// - Throws: 400 `malformed_json`, `not_an_object` or `unknown_field`.
    init(parsing body: [UInt8], allowed: [String]) throws(APIError) {
        // RFC 8259 §8.1: JSON text is sent without a byte order mark.
        if body.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw .badRequest("malformed_json", "The body starts with a byte order mark (EF BB BF); send the JSON without one.")
        }
        let value: JSONValue
        do {
            value = try JSONReader.parse(body, maxDepth: Self.maxDepth)
        } catch {
            throw .badRequest("malformed_json", "The body is not valid JSON: \(error.reason) at byte \(error.offset).")
        }
        guard case .object(let members) = value else {
            throw .badRequest("not_an_object", "The body must be a JSON object, not \(value.kind).")
        }
        // The first unknown name in sorted order, so that the answer does not depend on the body's order.
        if let unknown = members.lazy.map(\.key).filter({ !allowed.contains($0) }).min() {
            let known = allowed.map { "'\($0)'" }.joined(separator: ", ")
            throw .badRequest(
                "unknown_field",
                "Unknown field '\(DisplayText.clean(unknown))'" + (allowed.isEmpty ? "; this body takes no fields." : "; known fields: \(known)."))
        }
        object = value
    }

    /// A string field; nil when absent.
    ///
    /// - Throws: 400 `invalid_field` for any other JSON type, `null` included.
    func string(_ name: String) throws(APIError) -> String? {
        guard let value = object[name] else { return nil }
        guard case .string(let text) = value else { throw Self.wrongType(name, "a string", value) }
        return text
    }

    /// A whole-number field, written without a fraction or exponent; nil when absent.
    ///
    /// - Throws: 400 `invalid_field` for another type or a number that is not a whole number
    ///   in 64 bits.
    func integer(_ name: String) throws(APIError) -> Int? {
        guard let value = object[name] else { return nil }
        return try Self.integer(value, name)
    }

    /// The `quantity` field within `range`, as the OpenAPI document bounds it; nil when absent.
    /// A value outside is malformed (400 `invalid_quantity`), whatever the store's rules say.
    /// The message names only the bound it is past: the upper is the document's, which no
    /// store's per-line cap exceeds, and read as a range it would mislead where the cap is lower.
    func quantity(in range: ClosedRange<Int>) throws(APIError) -> Int? {
        guard let number = try integer("quantity") else { return nil }
        guard number >= range.lowerBound else {
            throw .badRequest(
                "invalid_quantity", CartError.invalidQuantity(given: number, range: range.lowerBound...Int.max).description)
        }
        guard number <= range.upperBound else {
            throw .badRequest(
                "invalid_quantity",
                "Quantity must be at most \(range.upperBound), the most any store allows in a line; got \(number).")
        }
        return number
    }

    /// A whole-number field that may be `null`: nil when absent, `.some(nil)` for `null`.
    func nullableInteger(_ name: String) throws(APIError) -> Int?? {
        guard let value = object[name] else { return nil }
        if value == .null { return .some(nil) }
        return .some(try Self.integer(value, name))
    }

    /// A boolean field; nil when absent.
    func bool(_ name: String) throws(APIError) -> Bool? {
        guard let value = object[name] else { return nil }
        guard case .bool(let flag) = value else { throw Self.wrongType(name, "true or false", value) }
        return flag
    }

    /// `value`, or 400 `missing_field` naming the field when it is absent.
    static func required<Value>(_ value: Value?, _ name: String) throws(APIError) -> Value {
        guard let value else { throw .badRequest("missing_field", "The field '\(name)' is required.") }
        return value
    }

    private static func integer(_ value: JSONValue, _ name: String) throws(APIError) -> Int {
        guard case .number(let text) = value else { throw wrongType(name, "a whole number", value) }
        guard let number = Int(text) else {
            let reason = text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) ? "a whole number" : "a number that fits in 64 bits"
            throw .badRequest("invalid_field", "The field '\(name)' must be \(reason); got \(DisplayText.clean(text)).")
        }
        return number
    }

    private static func wrongType(_ name: String, _ expected: String, _ value: JSONValue) -> APIError {
        .badRequest("invalid_field", "The field '\(name)' must be \(expected), not \(value.kind).")
    }
}
