/// The SQL text of a statement, with its hash worked out once.
///
/// A connection looks up its prepared statement by the text at every call; a text declared
/// once as a constant is hashed once, not at each lookup. A string literal is one:
///
/// ```swift
/// static let selectVersion: PostgresSQL = "SELECT version FROM carts WHERE id = $1"
/// let rows = try connection.execute(Self.selectVersion, [.text(id)])
/// ```
public struct PostgresSQL: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The SQL, with `$1`, `$2`, … where the parameters go.
    public let text: String
    private let textHash: Int

    /// Wraps SQL text.
    public init(_ text: String) {
        self.text = text
        textHash = text.hashValue
    }

    public init(stringLiteral text: String) { self.init(text) }

    public static func == (lhs: PostgresSQL, rhs: PostgresSQL) -> Bool {
        lhs.textHash == rhs.textHash && lhs.text == rhs.text
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(textHash) }

    public var description: String { text }
}
