/// Lays out text for the terminal: one-line messages and padded columns.
enum TextLayout {
    /// The message as exactly one line, whatever an underlying error put in it.
    static func oneLine(_ message: String) -> String {
        message.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// A sentence made to continue another after a colon: its first letter in lower case,
    /// unless the first word is an acronym or a name such as `SQLite`.
    static func continuing(_ sentence: String) -> String {
        let letters = Array(sentence.prefix(2))
        guard letters.count == 2, letters[0].isUppercase, letters[1].isLowercase else { return sentence }
        return letters[0].lowercased() + sentence.dropFirst()
    }

    /// `text` followed by spaces up to `width` terminal columns, and at least one space.
    static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(1, width - TerminalWidth.of(text)))
    }
}
