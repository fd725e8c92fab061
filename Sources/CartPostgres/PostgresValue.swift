/// A value bound to a statement parameter (`$1`, `$2`, …), sent in PostgreSQL's text format.
///
/// Parameters carry no type: the server infers each from where it appears, as for an
/// untyped literal. Where nothing tells it (`SELECT $1`, `$1 IS NULL`), the SQL casts
/// (`$1::bigint`).
///
/// ```swift
/// try connection.execute("UPDATE carts SET version = version + 1 WHERE id = $1", [.text(id)])
/// try connection.execute("SELECT $1::bigint, $2::text", [42, "hello"])
/// ```
public enum PostgresValue: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral
{
    /// SQL NULL.
    case null
    /// Text. PostgreSQL text cannot hold the NUL character: binding one throws.
    case text(String)
    /// A 64-bit integer.
    case integer(Int64)
    /// A boolean.
    case boolean(Bool)

    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
    public init(nilLiteral: ()) { self = .null }

    /// `value` as text, or NULL when it is `nil`.
    public init(_ value: String?) { self = value.map { .text($0) } ?? .null }

    /// `value` as an integer, or NULL when it is `nil`.
    public init(_ value: Int64?) { self = value.map { .integer($0) } ?? .null }

    /// `value` as an integer, or NULL when it is `nil`.
    public init(_ value: Int?) { self = value.map { .integer(Int64($0)) } ?? .null }

    /// `value` as a boolean, or NULL when it is `nil`.
    public init(_ value: Bool?) { self = value.map { .boolean($0) } ?? .null }

    /// The value in PostgreSQL's text format, or `nil` for NULL.
    var textFormat: String? {
        switch self {
        case .null: nil
        case .text(let text): text
        case .integer(let integer): String(integer)
        case .boolean(let boolean): boolean ? "t" : "f"
        }
    }
}
