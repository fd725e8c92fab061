import CartCore
import HTTPServer

/// The host a request names, from its absolute-form target's authority or else its `Host`
/// field (RFC 9112 §3.2.2): `uri-host [":" port]` of RFC 3986, checked byte by byte.
struct RequestHost: Equatable {
    /// The host as written: a registered name, an IPv4 address, or an IP literal in brackets.
    let name: Substring
    /// The port, when the authority gives one.
    let port: Int?

    /// The host `request` names; nil when it names none (HTTP/1.0 lets a client leave `Host`
    /// out). libmicrohttpd itself refuses an HTTP/1.1 request without `Host` or with two.
    ///
    /// - Throws: 400 `invalid_host` for a `Host` that is not a host and port.
    static func of(_ request: HTTPRequest) throws(APIError) -> RequestHost? {
        guard let authority = request.authority ?? request.headers["Host"] else { return nil }
        let trimmed = Substring(authority.trimmingSpaces)
        guard let host = RequestHost(parsing: trimmed) else {
            throw .badRequest(
                "invalid_host", "The host '\(DisplayText.clean(String(trimmed)))' is not a host name or address with an optional port.")
        }
        return host
    }

    /// `authority` split into host and port, or nil when it is not `uri-host [":" port]`
    /// (no user information, a port of at most 65535).
    init?(parsing authority: Substring) {
        var authority = authority
        guard let (hostLength, port) = authority.withUTF8(Self.split) else { return nil }
        name = Substring(authority.utf8.prefix(hostLength))
        self.port = port
    }

    /// The length of the host that `bytes` starts with, and the port after it, if any.
    private static func split(_ bytes: UnsafeBufferPointer<UInt8>) -> (hostLength: Int, port: Int?)? {
        guard let first = bytes.first else { return nil }
        let hostLength: Int
        if first == UInt8(ascii: "[") {
            // IP-literal: an IPv6 address (hex digits, colons, and dots for an IPv4 tail).
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")), close > 1,
                bytes[1..<close].allSatisfy(isAddressByte)
            else { return nil }
            hostLength = close + 1
        } else {
            hostLength = bytes.firstIndex(of: UInt8(ascii: ":")) ?? bytes.count
            guard hostLength > 0, bytes[..<hostLength].allSatisfy(isRegisteredNameByte) else { return nil }
        }
        guard hostLength < bytes.count else { return (hostLength, nil) }
        guard bytes[hostLength] == UInt8(ascii: ":") else { return nil }
        let digits = bytes[(hostLength + 1)...]
        // An empty port is allowed (RFC 3986 §3.2.3) and means the scheme's default.
        guard digits.count <= 5, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        guard !digits.isEmpty else { return (hostLength, nil) }
        let value = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        guard value <= 65_535 else { return nil }
        return (hostLength, value)
    }

    private static func isAddressByte(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".") || isHexDigit(byte)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    /// reg-name's bytes: unreserved, sub-delims and the `%` of percent-encoding.
    private static func isRegisteredNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "%"): true
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
            UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
            true
        default: false
        }
    }
}
