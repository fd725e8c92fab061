/// Makes text from outside (argv, files, stored data) safe to quote in a one-line message.
public enum DisplayText {
    /// The text with control, line-separator and bidirectional-override characters escaped,
    /// cut after 80 characters.
    public static func clean(_ text: String) -> String {
        var out = ""
        for (count, scalar) in text.unicodeScalars.enumerated() {
            if count == 80 {
                out += "…"
                break
            }
            // Bidirectional overrides (U+202A…U+202E, U+2066…U+2069) could make the quoted
            // text read differently from what was typed.
            let category = scalar.properties.generalCategory
            let isBidiControl = (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
            if category == .control || category == .lineSeparator || category == .paragraphSeparator || isBidiControl {
                out += scalar.escaped(asASCII: true)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
