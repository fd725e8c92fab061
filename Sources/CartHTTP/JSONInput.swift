/// A JSON value read from a request body by ``JSONInputParser``: strict RFC 8259, numbers kept
/// as their exact text so that the reader decides what they may be.
enum JSONInput: Equatable, Sendable {
    case object([String: JSONInput])
    case array([JSONInput])
    case string(String)
    /// The number's text as sent, such as `12`, `-0.5` or `1e3`.
    case number(String)
    case bool(Bool)
    case null

    /// The kind of value, for messages: `a string`, `an object`.
    var kind: String {
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
