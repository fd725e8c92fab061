/// How text is laid out for people at a terminal: ANSI emphasis and the line width tables fit
/// in; neither anywhere else.
struct TextStyle {
    /// Whether escape codes are written at all.
    let isEnabled: Bool
    /// The terminal's width in columns, which tables shorten their long names to fit; `nil`
    /// off a terminal, where every cell is written whole.
    var lineWidth: Int? = nil

    /// Colour only when stdout is a terminal, `NO_COLOR` is unset or empty (no-color.org: only
    /// a non-empty value turns colour off) and the terminal is not `dumb`. On a terminal the
    /// line width is `COLUMNS` when that is a positive number, else what the terminal reports.
    static func forOutput(_ output: any CommandOutput, environment: [String: String]) -> TextStyle {
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        guard output.isTerminal else { return TextStyle(isEnabled: false) }
        let columns = environment["COLUMNS"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
        return TextStyle(
            isEnabled: !noColor && environment["TERM"] != "dumb", lineWidth: columns ?? output.terminalColumns)
    }

    func bold(_ text: String) -> String { wrap(text, "1") }
    func dim(_ text: String) -> String { wrap(text, "2") }

    private func wrap(_ text: String, _ code: String) -> String {
        isEnabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
