/// An ordered list of HTTP header fields whose names compare case-insensitively.
///
/// Request headers keep the order and repetitions the client sent. Response headers are
/// checked when the response is sent: a name that is not an RFC 9110 token, a value with a
/// control character (CR, LF and NUL among them) or an empty value, and the framing fields
/// `Content-Length` and `Transfer-Encoding` that the server writes itself, make the server
/// refuse the response (see ``HTTPServer``).
///
/// ```swift
/// var headers: HTTPHeaders = ["Content-Type": "application/json"]
/// headers.add("Vary", "Accept")
/// headers["content-type"]   // "application/json"
/// ```
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// The fields in order, with names as they were given.
    public private(set) var fields: [(name: String, value: String)]

    /// Makes a list of the given fields, kept in order.
    public init(_ fields: [(name: String, value: String)] = []) {
        self.fields = fields
    }

    /// Makes a list of the given fields, kept in order.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.fields = elements.map { (name: $0.0, value: $0.1) }
    }

    /// The value of the first field with this name, compared case-insensitively.
    public subscript(name: String) -> String? {
        fields.first { Self.sameName($0.name, name) }?.value
    }

    /// The values of every field with this name, in order.
    public func values(for name: String) -> [String] {
        var values: [String] = []
        for field in fields where Self.sameName(field.name, name) { values.append(field.value) }
        return values
    }

    /// Makes room for `count` fields in all, so that adding up to that many does not grow the
    /// list again.
    public mutating func reserveCapacity(_ count: Int) {
        fields.reserveCapacity(count)
    }

    /// Appends a field, keeping any others of the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append((name: name, value: value))
    }

    /// Replaces every field of this name with one field holding `value`.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        add(name, value)
    }

    /// Removes every field of this name.
    public mutating func remove(_ name: String) {
        // `removeAll(where:)` copies a shared or empty array even when it removes nothing.
        guard fields.contains(where: { Self.sameName($0.name, name) }) else { return }
        fields.removeAll { Self.sameName($0.name, name) }
    }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    /// Lists are equal when they hold the same fields in the same order, names compared
    /// case-insensitively and values exactly.
    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy {
                sameName($0.name, $1.name) && $0.value == $1.value
            }
    }

    /// Whether two field names are equal ignoring ASCII case, as HTTP compares them.
    static func sameName(_ a: String, _ b: String) -> Bool {
        // Clients nearly always send a name in the case it is looked up in.
        a.utf8.count == b.utf8.count
            && (a.hasSameUTF8(as: b) || a.utf8.elementsEqual(b.utf8) { asciiLowercase($0) == asciiLowercase($1) })
    }

    /// Whether `name` is a field name as RFC 9110 writes one: a token of letters, digits and
    /// ``!#$%&'*+-.^_`|~``. The server refuses a response header otherwise; an application may
    /// refuse a request's (libmicrohttpd passes any).
    public static func isFieldName(_ name: String) -> Bool {
        !name.isEmpty && name.allUTF8(isTokenByte)
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    private static func asciiLowercase(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }
}
