/// Words written so that a POSIX shell reads them back exactly, for commands the tool
/// suggests a person run next.
enum ShellQuoting {
    /// `word` unchanged when every character is one no shell treats specially, else in single
    /// quotes with each `'` written as `'\''`; `''` for the empty word.
    static func quoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy(isPlain)

        return plain ? word : "'" + word.replacing("'", with: #"'\''"#) + "'"
    }

    /// ASCII letters and digits, and the punctuation that means nothing to a shell.
    private static func isPlain(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
            || "@%+=:,./_-".unicodeScalars.contains(scalar)
    }

    /// The words quoted and joined by spaces.
    static func command(_ words: [String]) -> String {
        words.map(quoted).joined(separator: " ")
    }
}
