/// Lays out text for the terminal: one-line messages and padded columns.
enum TextLayout {
    /// The message as exactly one line, whatever an underlying error put in it.
    static func oneLine(_ message: String) -> String {
        message.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// `text` followed by spaces up to `width` columns, and at least one space.
    static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(1, width - text.count))
    }
}
