import CartCore

/// An aligned plain-text table for people: columns two spaces apart, numbers right-aligned.
struct TextTable {
    /// How a column lines up.
    enum Alignment {
        case left, right
    }

    /// A column's title and alignment, and whether its cells are shortened to fit the terminal.
    struct Column {
        let title: String
        let alignment: Alignment
        var shrinks = false

        static func left(_ title: String) -> Column { Column(title: title, alignment: .left) }
        static func right(_ title: String) -> Column { Column(title: title, alignment: .right) }

        /// A left-aligned column of free text, such as names, whose long cells end in `…`
        /// where the table would otherwise be wider than the terminal. Columns of values a
        /// person copies (SKUs, cart IDs, amounts) are never shortened.
        static func shrinking(_ title: String) -> Column { Column(title: title, alignment: .left, shrinks: true) }
    }

    /// The narrowest a shrinking column becomes, so that a name stays recognisable.
    static let minimumShrunkWidth = 12

    let columns: [Column]
    private(set) var rows: [[String]] = []

    init(_ columns: [Column]) {
        self.columns = columns
    }

    /// Adds a row; control, separator and bidirectional characters in a cell are escaped
    /// (`DisplayText.escaped`), so stored text cannot move the cursor or colour the terminal.
    mutating func append(_ row: [String]) {
        rows.append(row.map { DisplayText.escaped($0) })
    }

    /// The table, header first (bold where the style allows), one line per row, each ending
    /// in a newline, without trailing spaces. Columns are as wide as their widest cell on a
    /// terminal (see `TerminalWidth`), so wide scripts and emoji line up. Where the style has a
    /// line width and the table is wider, the shrinking column narrows (to no less than
    /// `minimumShrunkWidth`) and its longer cells end in `…`.
    func rendered(style: TextStyle) -> String {
        var widths = columns.map { TerminalWidth.of($0.title) }
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], TerminalWidth.of(cell))
            }
        }
        var rows = self.rows
        let tableWidth = widths.reduce(0, +) + 2 * (widths.count - 1)
        if let lineWidth = style.lineWidth, tableWidth > lineWidth,
            let shrinking = columns.firstIndex(where: \.shrinks)
        {
            let narrowest = max(Self.minimumShrunkWidth, TerminalWidth.of(columns[shrinking].title))
            widths[shrinking] = max(narrowest, widths[shrinking] - (tableWidth - lineWidth))
            for index in rows.indices where shrinking < rows[index].count {
                rows[index][shrinking] = Self.shortened(rows[index][shrinking], to: widths[shrinking])
            }
        }
        var out = style.bold(line(columns.map(\.title), widths: widths)) + "\n"
        for row in rows { out += line(row, widths: widths) + "\n" }
        return out
    }

    /// `text` as it is when it fits in `width` terminal columns, else its longest start that
    /// fits with `…` after it.
    static func shortened(_ text: String, to width: Int) -> String {
        guard TerminalWidth.of(text) > width else { return text }
        var kept = ""
        var used = 0
        for character in text {
            let characterWidth = TerminalWidth.of(character)
            guard used + characterWidth < width else { break }
            kept.append(character)
            used += characterWidth
        }
        while kept.last == " " { kept.removeLast() }
        return kept + "…"
    }

    /// Appended cell by cell, which costs a table of many lines much less than
    /// `joined(separator:)` on each line's cells.
    private func line(_ cells: [String], widths: [Int]) -> String {
        var text = ""
        for (index, column) in columns.enumerated() {
            let cell = index < cells.count ? cells[index] : ""
            let padding = String(repeating: " ", count: max(0, widths[index] - TerminalWidth.of(cell)))
            if index > 0 { text += "  " }
            text += column.alignment == .left ? cell + padding : padding + cell
        }
        while text.last == " " { text.removeLast() }
        return text
    }
}
