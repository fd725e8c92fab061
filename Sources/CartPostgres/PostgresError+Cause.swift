extension PostgresError {
    /// The cause in libpq's words of a failure it reports in `message` (`PQerrorMessage`),
    /// on one line and without the location or the server's severity: `Connection refused`,
    /// `timeout expired`, `password authentication failed for user "shop"`. `nil` for an
    /// empty message.
    ///
    /// libpq writes one line per address it tried (`connection to server at "db" (10.0.0.5),
    /// port 5432 failed: Connection refused`), each followed by a tab-indented hint; the last
    /// address's cause is the one given. The path of a Unix socket that cannot be connected to
    /// follows the cause (`No such file or directory at /run/x/.s.PGSQL.5432`), since the
    /// location may not show it.
    static func cause(ofClientMessage message: String) -> String? {
        let lines = message.split(separator: "\n").filter { !$0.hasPrefix("\t") && !$0.allSatisfy(\.isWhitespace) }
        guard var cause = lines.last.map(String.init) else { return nil }
        var socket: Substring?
        if let failed = cause.firstRange(of: " failed: ") {
            let address = cause[..<failed.lowerBound]
            if let start = address.firstRange(of: "on socket \"")?.upperBound, let end = address[start...].firstIndex(of: "\"") {
                socket = address[start..<end]
            }
            cause = String(cause[failed.upperBound...])
        }
        if let socket, Self.socketFailures.contains(cause) { cause += " at \(socket)" }
        for severity in ["FATAL:", "ERROR:"] where cause.hasPrefix(severity) {
            cause = String(cause.dropFirst(severity.count))
        }
        let words = PostgresLocation.oneLine(cause)
        return words.isEmpty ? nil : words
    }

    /// The system's words for a Unix socket that cannot be connected to, after which libpq's
    /// message names the socket.
    private static let socketFailures: Set<String> = ["No such file or directory", "Connection refused", "Permission denied"]

    /// `cause` for the middle of a sentence: `Connection refused` becomes `connection
    /// refused`; a word in capitals (`SSL`) stays as it is.
    static func lowercasingFirstWord(_ cause: String) -> String {
        let letters = Array(cause.prefix(2))
        guard letters.count == 2, letters[0].isUppercase, letters[1].isLowercase else { return cause }
        return letters[0].lowercased() + cause.dropFirst()
    }
}
