/// A JSON value as `products import` reads it (see `JSONParser`).
///
/// Numbers keep their exact text, so an amount read from a file is never rounded through a
/// binary float, and object members keep their order and every key, so the reader can refuse
/// a key it does not know.
enum JSONValue: Equatable {
    case null
    case bool(Bool)
    /// The number's text exactly as written, such as `12.99` or `3`.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// The member named `key` of an object.
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }
}
