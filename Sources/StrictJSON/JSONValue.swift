/// A JSON value as `JSONReader` found it.
///
/// Numbers keep their exact text, so an amount is never rounded through a binary float, and
/// object members keep their order, so a reader can name the first key it does not know.
package enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    /// The number's text exactly as written, such as `12.99`, `-0.5` or `1e3`.
    case number(String)
    case string(String)
    case array([JSONValue])
    /// The members in the order written; no key appears twice.
    case object([JSONMember])

    /// The member named `key` of an object.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The kind of value, for messages: `a string`, `an object`.
    package var kind: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }
}

/// One member of a JSON object.
package struct JSONMember: Equatable, Sendable {
    package let key: String
    package let value: JSONValue

    package init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}
