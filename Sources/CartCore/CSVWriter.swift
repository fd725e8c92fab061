/// Writes CSV rows as RFC 4180 describes, except that rows end in LF rather than CRLF so the
/// output suits Unix pipes; readers that follow the RFC accept both. For the front ends'
/// exports (package access).
package enum CSVWriter {
    /// One row, fields quoted where needed, ending in a newline.
    package static func row(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\n"
    }

    /// A field quoted (with its quotes doubled) when it holds a comma, quote or line break,
    /// or starts or ends with a space that a reader might trim.
    ///
    /// Works on Unicode scalars, as CSV readers do: a quote followed by a combining mark is one
    /// `Character` that is not equal to `"`, yet its quote byte still ends a quoted field.
    package static func field(_ text: String) -> String {
        let scalars = text.unicodeScalars
        let needsQuotes =
            scalars.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }
            || scalars.first == " " || scalars.last == " "
        guard needsQuotes else { return text }
        var quoted = String.UnicodeScalarView()
        quoted.append("\"")
        for scalar in scalars {
            if scalar == "\"" { quoted.append(scalar) }
            quoted.append(scalar)
        }
        quoted.append("\"")
        return String(quoted)
    }
}
