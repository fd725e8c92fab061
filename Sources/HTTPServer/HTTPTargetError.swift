/// Why a request target has no safe decoded path or query.
///
/// The server decodes each path segment and query parameter exactly once. It reports,
/// instead of passing on, anything an application could misread: a target that is not a
/// path, bytes that are not allowed unencoded, broken percent-encoding, decoded bytes that are
/// not UTF-8 or are control characters, and `.` or `..` segments however they are spelled.
/// Applications answer these with 400 (or 404 for a dot segment, which names nothing).
public enum HTTPTargetError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The target is neither a path starting with `/` nor an `http://` absolute form with a
    /// host (asterisk-form `*`, another scheme).
    case notOriginForm
    /// A space, control character or DEL appears unencoded in the target.
    case invalidCharacter
    /// A `%` is not followed by two hexadecimal digits.
    case invalidPercentEncoding
    /// The decoded bytes are not UTF-8 (overlong forms and surrogates included).
    case invalidUTF8
    /// A decoded control character: NUL, CR, LF, any other below U+0020, or DEL.
    case controlCharacter
    /// A path segment is `.` or `..`, written plainly or percent-encoded (`%2e%2E`).
    case dotSegment

    /// A one-line human description.
    public var description: String {
        switch self {
        case .notOriginForm: "request target is not a path starting with '/' or an http:// URL"
        case .invalidCharacter: "request target contains a space, a control character or a '#'"
        case .invalidPercentEncoding: "request target has a '%' not followed by two hex digits"
        case .invalidUTF8: "request target decodes to bytes that are not UTF-8"
        case .controlCharacter: "request target decodes to a control character"
        case .dotSegment: "request path has a '.' or '..' segment"
        }
    }
}
