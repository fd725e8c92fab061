import CLibpq
import CLibpqLoader

/// Where a PostgreSQL database is: a libpq connection URI (`postgresql://…` or
/// `postgres://…`) or a `keyword=value` connection string, checked by libpq's own parser.
///
/// What the location leaves out, libpq takes from the `PG*` environment variables
/// (`PGHOST`, `PGUSER`, `PGPASSWORD`, …) and `~/.pgpass`, as it documents; an empty location
/// leaves them everything.
///
/// Its `description` is the redacted display form, with every password replaced by `***`
/// (`postgresql://cart:***@db.example:5432/shop`), and so are the messages of the errors it
/// and the connections made from it throw: printing a location or an error never shows a
/// password.
public struct PostgresLocation: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The location as given, password included; only libpq sees it.
    let connectionString: String
    /// The location with its passwords replaced by `***`.
    public let redacted: String
    /// The passwords as spelled in `connectionString`, to scrub from libpq's messages.
    private let secrets: [String]
    /// The `options` the location gives the server (`-c search_path=…`), if any.
    let serverOptions: String?

    /// Whether `text` is a PostgreSQL connection URI: it starts with `postgresql://` or
    /// `postgres://`.
    public static func isURI(_ text: String) -> Bool {
        text.hasPrefix("postgresql://") || text.hasPrefix("postgres://")
    }

    /// Checks a location.
    ///
    /// - Throws: `PostgresError` of kind `.invalidLocation` when libpq cannot parse it (an
    ///   unknown parameter, a bad percent-escape, an unterminated quote) or it holds a NUL.
    public init(_ text: String) throws {
        (redacted, secrets) = Self.redacting(text)
        connectionString = text
        guard !text.utf8.contains(0) else {
            throw PostgresError(
                kind: .invalidLocation, message: "the PostgreSQL location \(redacted) contains a NUL character",
                detail: "it contains a NUL character")
        }
        if Self.isURI(text), Self.authority(of: text).filter({ $0 == "@" }).count > 1 {
            // libpq ends the user information at the first `@`, so the rest of a password with
            // an `@` in it would be taken for the host, and shown as one.
            let reason = "an @ in the user name or password must be written %40"
            throw PostgresError(
                kind: .invalidLocation, message: "invalid PostgreSQL location \(redacted): \(reason)", detail: reason)
        }
        if Self.isURI(text), Self.splitPasswordEnd(in: text) != nil {
            // libpq would end the user information at the `/` or `?` and read the password's
            // start as a port, quoting it in its message.
            let reason = "a / or ? in the password must be written %2F or %3F"
            throw PostgresError(
                kind: .invalidLocation, message: "invalid PostgreSQL location \(redacted): \(reason)", detail: reason)
        }
        try PostgresError.requireClientLibrary()
        var error: UnsafeMutablePointer<CChar>?
        guard let options = cart_PQconninfoParse(text, &error) else {
            var reason = Self.oneLine(Self.scrub(error.map { String(cString: $0) } ?? "out of memory", text, redacted, secrets))
            // libpq quotes the token, which is the password, now masked: say which part it was.
            if reason == #"invalid percent-encoded token: "***""# {
                reason = "the password holds a % not followed by two hex digits; a % itself is written %25"
            }
            cart_PQfreemem(error)
            throw PostgresError(
                kind: .invalidLocation, message: "invalid PostgreSQL location \(redacted): \(reason)", detail: reason)
        }
        defer { cart_PQconninfoFree(options) }
        var found: String?
        var option = options
        while let keyword = option.pointee.keyword {
            if String(cString: keyword) == "options", let value = option.pointee.val { found = String(cString: value) }
            option += 1
        }
        serverOptions = found
    }

    public var description: String { redacted }

    /// The display form of `text`, with its passwords masked, whether or not libpq would
    /// accept it: what messages show of a location that failed to open.
    public static func redacted(_ text: String) -> String { redacting(text).0 }

    private static func redacting(_ text: String) -> (String, [String]) {
        if text.allSatisfy(\.isWhitespace) { return ("(the PG* environment variables' server)", []) }
        return isURI(text) ? redactingURI(text) : redactingKeywords(text)
    }

    /// Shows only the redacted form, so that `dump` and debuggers print no password either.
    public var customMirror: Mirror { Mirror(self, children: ["redacted": redacted]) }

    /// `message` from libpq with this location's passwords replaced by `***`, on one line.
    func scrub(_ message: String) -> String {
        Self.oneLine(Self.scrub(message, connectionString, redacted, secrets))
    }

    private static func scrub(_ message: String, _ text: String, _ redacted: String, _ secrets: [String]) -> String {
        // libpq quotes what it echoes: the whole URI, or a percent-encoded token.
        var message = text.isEmpty ? message : message.replacing(text, with: redacted)
        for secret in secrets where !secret.isEmpty {
            message = message.replacing("\"\(secret)\"", with: "\"***\"")
        }
        return message
    }

    /// libpq's multi-line messages (`…failed: FATAL:  …\n\tIs the server running…`) on one
    /// line, without the doubled spaces after a severity.
    static func oneLine(_ message: String) -> String {
        message.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Whether a parameter's value is to be hidden: `password`, `sslpassword` (a client key's
    /// passphrase), and any other spelling of them, which libpq refuses in a message that
    /// would quote the value.
    private static func isSecret(_ keyword: String) -> Bool {
        keyword.lowercased().contains("password")
    }

    /// A URI's authority: what follows the scheme up to the first `/` or `?`.
    private static func authority(of text: String) -> Substring {
        let rest = text.dropFirst(text.hasPrefix("postgresql://") ? "postgresql://".count : "postgres://".count)
        return rest[..<(rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex)]
    }

    /// The `@` ending the user information of a URI whose password holds an unencoded `/` or
    /// `?` (`postgresql://cart:ab/cd@db/shop`), or nil. The authority then ends inside the
    /// password: it has no `@`, one `:` followed by something other than a port number, and an
    /// `@` comes later. The last `@` of the text is taken, so that a mask hides too much rather
    /// than too little.
    private static func splitPasswordEnd(in text: String) -> String.Index? {
        let authority = authority(of: text)
        guard !authority.contains("@"), !authority.contains("["),
            authority.filter({ $0 == ":" }).count == 1, let colon = authority.firstIndex(of: ":")
        else { return nil }
        let afterColon = authority[authority.index(after: colon)...]
        let isPort = !afterColon.isEmpty && afterColon.allSatisfy { $0.isASCII && $0.isNumber }
        guard !isPort, let end = text.lastIndex(of: "@"), end > authority.endIndex else { return nil }
        return end
    }

    /// The display form of a URI and the passwords in it. libpq takes the user information
    /// to be what precedes the first `@` before any `/`, and its password what follows its
    /// first `:`; the display masks up to the authority's last `@`, so that a password with
    /// an unencoded `@` (which `init` refuses) is not shown either, nor one with an unencoded
    /// `/` or `?` (refused too). A query may also carry `password=` or `sslpassword=`.
    private static func redactingURI(_ text: String) -> (String, [String]) {
        let scheme = text.hasPrefix("postgresql://") ? "postgresql://" : "postgres://"
        var rest = text.dropFirst(scheme.count)
        var display = scheme
        var secrets: [String] = []
        if let end = authority(of: text).lastIndex(of: "@") ?? splitPasswordEnd(in: text) {
            let userInfo = rest[..<end]
            if let colon = userInfo.firstIndex(of: ":") {
                display += userInfo[..<colon] + ":***"
                secrets.append(String(userInfo[userInfo.index(after: colon)...]))
            } else {
                display += userInfo
            }
            rest = rest[end...]
        }
        guard let question = rest.firstIndex(of: "?") else { return (display + rest, secrets) }
        display += rest[...question]
        let parameters = rest[rest.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false)
        display += parameters.map { parameter -> String in
            guard let equals = parameter.firstIndex(of: "="), isSecret(percentDecoded(parameter[..<equals])) else {
                return String(parameter)
            }
            secrets.append(String(parameter[parameter.index(after: equals)...]))
            return parameter[..<equals] + "=***"
        }.joined(separator: "&")
        return (display, secrets)
    }

    /// The display form of a `keyword=value` string and its passwords. Values are unquoted
    /// (ending at white space) or single-quoted, with backslash escapes. Past anything
    /// malformed right after `password`, the rest is hidden, as it may be the password.
    private static func redactingKeywords(_ text: String) -> (String, [String]) {
        let characters = Array(text)
        var display = ""
        var secrets: [String] = []
        var index = 0
        func skipSpace() {
            while index < characters.count, characters[index].isWhitespace {
                display.append(characters[index])
                index += 1
            }
        }
        while true {
            skipSpace()
            guard index < characters.count else { break }
            var keyword = ""
            while index < characters.count, characters[index] != "=", !characters[index].isWhitespace {
                keyword.append(characters[index])
                index += 1
            }
            display += keyword
            skipSpace()
            guard index < characters.count, characters[index] == "=" else {
                if isSecret(keyword), index < characters.count { display += "***" }
                else { display += String(characters[index...]) }
                break
            }
            display.append("=")
            index += 1
            skipSpace()
            let start = index
            let quoted = index < characters.count && characters[index] == "'"
            if quoted { index += 1 }
            while index < characters.count {
                let character = characters[index]
                if character == "\\" {
                    index += 2
                    continue
                }
                if quoted ? character == "'" : character.isWhitespace { break }
                index += 1
            }
            if quoted, index < characters.count { index += 1 }
            index = min(index, characters.count)
            let value = String(characters[start..<index])
            if isSecret(keyword) {
                display += "***"
                secrets.append(value)
            } else {
                display += value
            }
        }
        return (display, secrets)
    }

    /// `text` with its `%XX` escapes decoded (as libpq does for URI parameters); a malformed
    /// escape stays as written.
    private static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var utf8 = text.utf8[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
                let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
