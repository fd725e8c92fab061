/// One request, reported to ``HTTPServerConfiguration/accessLog`` after its response.
public struct HTTPAccessLogEntry: Sendable {
    /// The method as sent (empty when the request line did not get that far).
    public let method: String
    /// The raw target as sent.
    public let target: String
    /// The status the application (or the server, for 400, 413 and 500) answered; nil when
    /// libmicrohttpd answered on its own (a malformed request, headers too large) or no answer
    /// was made.
    public let status: Int?
    /// From the request line's arrival to the end of the response.
    public let duration: Duration
    /// The client's IP address, when known.
    public let remoteAddress: String?
    /// How the request ended.
    public let outcome: HTTPRequestOutcome

    /// The line to log: client address, method, target, status, duration in milliseconds,
    /// then the outcome when the response was not completed; `-` stands for a missing
    /// address, method or status. The value of an `access_token` query parameter, and of one
    /// whose name does not decode, is written as `REDACTED`. Control characters (and `\`) in
    /// the method and the target are written as `\xHH`, so a log line is always one line, and
    /// a method over ``maximumLoggedMethodBytes`` or a target over ``maximumLoggedTargetBytes``
    /// is cut there, so a line stays one atomic write to a pipe.
    ///
    /// `127.0.0.1 GET /v1/health 200 0.412ms`
    public var line: String {
        let (seconds, attoseconds) = duration.components
        let micros = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        // Built as UTF-8 and decoded once: a string grown piece by piece costs more per piece.
        var line: [UInt8] = []
        line.reserveCapacity(128)
        line += (remoteAddress ?? "-").utf8
        line.append(UInt8(ascii: " "))
        line += (method.isEmpty ? "-" : Self.logged(method: method)).utf8
        line.append(UInt8(ascii: " "))
        line += Self.logged(target: target).utf8
        line.append(UInt8(ascii: " "))
        if let status { Self.append(status.magnitude, to: &line) } else { line.append(UInt8(ascii: "-")) }
        line.append(UInt8(ascii: " "))
        Self.append((micros / 1000).magnitude, to: &line)
        line.append(UInt8(ascii: "."))
        let fraction = (micros % 1000).magnitude
        line.append(UInt8(ascii: "0") + UInt8(fraction / 100))
        line.append(UInt8(ascii: "0") + UInt8(fraction / 10 % 10))
        line.append(UInt8(ascii: "0") + UInt8(fraction % 10))
        line += "ms".utf8
        if outcome != .completed {
            line.append(UInt8(ascii: " "))
            line += outcome.description.utf8
        }
        return String(decoding: line, as: UTF8.self)
    }

    /// Appends `value`'s decimal digits to `line`, without the string `String(value)` would
    /// build: a line holds two numbers.
    private static func append(_ value: some UnsignedInteger, to line: inout [UInt8]) {
        let start = line.count
        var rest = value
        repeat {
            line.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        line[start...].reverse()
    }

    /// The most of a target a line holds: with the rest of the line, and each control
    /// character written as four, well under the 4 KiB a pipe writes at once.
    public static let maximumLoggedTargetBytes = 512

    /// The most of a method a line holds: libmicrohttpd takes any token as a method, as long
    /// as the request head fits its memory.
    public static let maximumLoggedMethodBytes = 32

    /// A method as a log line holds it: control characters and bidirectional overrides
    /// escaped, cut if long.
    static func logged(method: String) -> String {
        printable(cut(method, at: maximumLoggedMethodBytes))
    }

    /// A target as a log line holds it: a bearer token in the query redacted, control
    /// characters and bidirectional overrides escaped, cut if long.
    static func logged(target: String) -> String {
        printable(cut(redacted(target), at: maximumLoggedTargetBytes))
    }

    /// The query parameter whose value a log line never holds: a bearer token sent in the
    /// query (RFC 6750 §2.3), which a client may send even to a server that reads tokens only
    /// from `Authorization`.
    public static let redactedQueryParameter = "access_token"

    /// `target` with the value of each query parameter whose name begins with `access_token`
    /// written as `REDACTED`, and of each whose name does not decode; such a parameter
    /// without `=` is written as `REDACTED` whole. The name is matched in
    /// any case and as the server decodes it (`access%5Ftoken`), so a token some client sent
    /// under a near name stays out of the log too; a name that does not decode
    /// (`acc%zzess_token`, `access_token%00`) cannot be matched, so its value is redacted
    /// whatever it holds.
    private static func redacted(_ target: String) -> String {
        // Most targets have no query; `containsUTF8` finds that with memchr.
        guard target.containsUTF8(UInt8(ascii: "?")), let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) else {
            return target
        }
        let query = target[target.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: false).map {
            pair in
            let equals = pair.firstIndex(of: "=")
            let name = TargetDecoder.queryName(Array(pair[..<(equals ?? pair.endIndex)].utf8))
            if let name, !name.lowercased().hasPrefix(redactedQueryParameter) { return String(pair) }
            // A pair without `=` is all name: one sent encoded whole (`access_token%3DTOKEN`)
            // holds its value there, so the whole pair goes.
            guard let equals else { return "REDACTED" }
            return pair[...equals] + "REDACTED"
        }
        return target[..<mark] + "?" + query.joined(separator: "&")
    }

    /// `text` cut at a character boundary within `limit` bytes, the count saying how much
    /// there was; as it is when it fits.
    private static func cut(_ text: String, at limit: Int) -> String {
        let length = text.utf8.count
        guard length > limit else { return text }
        let cut = String(decoding: text.utf8.prefix(limit), as: UTF8.self)
        return String(cut.dropLast()) + "…(\(length) bytes)"
    }

    private static func printable(_ text: String) -> String {
        let isPrintableASCII = text.allUTF8 { byte in
            (0x20..<0x7F).contains(byte) && byte != UInt8(ascii: "\\")
        }
        if isPrintableASCII { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            // Bidirectional overrides and isolates (U+202A…U+202E, U+2066…U+2069) would make a
            // terminal show the rest of the line, the status among it, in another order.
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}"
                || scalar == "\u{2029}" || scalar == "\\" || (0x202A...0x202E).contains(scalar.value)
                || (0x2066...0x2069).contains(scalar.value)
            {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\x" + (hex.count < 2 ? "0" + hex : hex)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
