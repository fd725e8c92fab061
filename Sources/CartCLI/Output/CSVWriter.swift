/// Writes CSV rows as RFC 4180 describes, except that rows end in LF rather than CRLF so the
/// output suits Unix pipes; readers that follow the RFC accept both.
enum CSVWriter {
    /// One row, fields quoted where needed, ending in a newline.
    static func row(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\n"
    }

    /// A field quoted (with its quotes doubled) when it holds a comma, quote or line break,
    /// or starts or ends with a space that a reader might trim.
    static func field(_ text: String) -> String {
        let needsQuotes =
            text.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }
            || text.first == " " || text.last == " "
        guard needsQuotes else { return text }
        return "\"" + text.replacing("\"", with: "\"\"") + "\""
    }
}
