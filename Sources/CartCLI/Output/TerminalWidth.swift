/// How many columns text takes on a terminal, so that tables line up whatever script or
/// emoji their cells hold.
///
/// Each grapheme cluster (what a person sees as one character) counts as a whole: 2 columns
/// when it is East Asian Wide or Fullwidth (UAX #11) or shows as an emoji (it holds a
/// character with Emoji_Presentation, or U+FE0F asks for one), 0 when it is only a combining
/// mark, a format character such as U+200B or U+200D, or a control character, and 1 otherwise.
/// This is what `wcwidth` gives in common terminals, summed over a cluster's first character.
enum TerminalWidth {
    /// The columns `text` takes.
    static func of(_ text: String) -> Int {
        if let width = printableASCIIWidth(text) { return width }
        return text.reduce(0) { $0 + of($1) }
    }

    /// The width of printable ASCII text (U+0020…U+007E), one column per byte, or `nil` for
    /// other text. Almost every cell is such text, and counting bytes skips grapheme breaking
    /// and Unicode property look-ups, the costly part of measuring a cell.
    private static func printableASCIIWidth(_ text: String) -> Int? {
        let utf8 = text.utf8
        let width = utf8.withContiguousStorageIfAvailable { bytes in
            bytes.allSatisfy { $0 >= 0x20 && $0 <= 0x7E } ? bytes.count : nil
        }
        return width ?? nil
    }

    /// The columns one grapheme cluster takes: 0, 1 or 2.
    static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.contains(where: { $0.properties.isEmojiPresentation })
            || (first.properties.isEmoji && scalars.contains("\u{FE0F}"))
        {
            return 2
        }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: return isWide(first) ? 2 : 1
        }
    }

    /// East Asian Wide and Fullwidth blocks (UAX #11), apart from emoji, which
    /// Emoji_Presentation covers.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,  // Hangul Jamo leading consonants
        0x2329...0x232A,  // angle brackets
        0x2E80...0x303E,  // CJK radicals, Kangxi, ideographic description, CJK symbols and punctuation
        0x3041...0x33FF,  // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, Kanbun, CJK compatibility
        0x3400...0x4DBF,  // CJK Extension A
        0x4E00...0x9FFF,  // CJK Unified Ideographs
        0xA000...0xA4CF,  // Yi
        0xA960...0xA97F,  // Hangul Jamo Extended-A
        0xAC00...0xD7A3,  // Hangul syllables
        0xF900...0xFAFF,  // CJK compatibility ideographs
        0xFE10...0xFE19,  // vertical forms
        0xFE30...0xFE6F,  // CJK compatibility forms, small form variants
        0xFF00...0xFF60,  // fullwidth forms
        0xFFE0...0xFFE6,  // fullwidth signs
        0x16FE0...0x16FF1,  // ideographic symbols
        0x17000...0x18D08,  // Tangut, Khitan
        0x1AFF0...0x1B2FF,  // Kana supplements, Nushu
        0x1F200...0x1F265,  // enclosed ideographic supplement
        0x20000...0x2FFFD,  // CJK Extensions B and later
        0x30000...0x3FFFD,  // CJK Extensions G and later
    ]

    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        guard value >= 0x1100 else { return false }
        return wideRanges.contains { $0.contains(value) }
    }
}
