import CartCore

/// An aligned plain-text table for people: columns two spaces apart, numbers right-aligned.
struct TextTable {
    /// How a column lines up.
    enum Alignment {
        case left, right
    }

    /// A column's title and alignment.
    struct Column {
        let title: String
        let alignment: Alignment

        static func left(_ title: String) -> Column { Column(title: title, alignment: .left) }
        static func right(_ title: String) -> Column { Column(title: title, alignment: .right) }
    }

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
    /// terminal (see `TerminalWidth`), so wide scripts and emoji line up.
    func rendered(style: TextStyle) -> String {
        var widths = columns.map { TerminalWidth.of($0.title) }
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], TerminalWidth.of(cell))
            }
        }
        var out = style.bold(line(columns.map(\.title), widths: widths)) + "\n"
        for row in rows { out += line(row, widths: widths) + "\n" }
        return out
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
