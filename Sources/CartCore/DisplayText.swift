/// Makes text from outside (argv, files, stored data) safe to quote in a one-line message.
public enum DisplayText {
    /// The text with control, line-separator, bidirectional-override and zero-width characters
    /// escaped, cut after 80 characters. Short printable ASCII, nearly every name and SKU, comes
    /// back as it is after one pass over its bytes.
    public static func clean(_ text: String) -> String {
        if text.utf8.count <= 80, isPrintableASCII(text) { return text }
        return escaping(text, limit: 80)
    }

    /// The whole text with the same characters escaped: for stored text shown in a table,
    /// which another client may have written with a terminal escape or a tab in it. Printable
    /// ASCII, nearly every cell, comes back as it is after one pass over its bytes.
    public static func escaped(_ text: String) -> String {
        if isPrintableASCII(text) { return text }
        return escaping(text, limit: nil)
    }

    /// `text` without the full stop it may end with, to go on inside a longer line: an error's
    /// description ends in one when it is a sentence, and `…: \(error); trying again` would read `.;`.
    public static func clause(_ text: String) -> String {
        text.hasSuffix(".") && !text.hasSuffix("..") ? String(text.dropLast()) : text
    }

    private static func isPrintableASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    private static func escaping(_ text: String, limit: Int?) -> String {
        var out = ""
        for (count, scalar) in text.unicodeScalars.enumerated() {
            if count == limit {
                out += "…"
                break
            }
            // Bidirectional overrides (U+202A…U+202E, U+2066…U+2069) could make the quoted
            // text read differently from what was typed. A zero-width space, word joiner or
            // byte order mark shows as nothing, so `'apple\u{200B}'` would read as `'apple'`
            // in the very message that refuses it. A noncharacter shows as nothing or as a box.
            let category = scalar.properties.generalCategory
            let isBidiControl = (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
            let isInvisible = scalar == "\u{200B}" || scalar == "\u{2060}" || scalar == "\u{FEFF}"
                || scalar.properties.isNoncharacterCodePoint
            if category == .control || category == .lineSeparator || category == .paragraphSeparator || isBidiControl
                || isInvisible
            {
                out += scalar.escaped(asASCII: true)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
