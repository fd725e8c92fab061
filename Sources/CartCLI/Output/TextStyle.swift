/// ANSI emphasis for people at a terminal, and nothing anywhere else.
struct TextStyle {
    /// Whether escape codes are written at all.
    let isEnabled: Bool

    /// Colour only when stdout is a terminal, `NO_COLOR` is unset or empty (no-color.org: only
    /// a non-empty value turns colour off) and the terminal is not `dumb`.
    static func forOutput(_ output: any CommandOutput, environment: [String: String]) -> TextStyle {
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        return TextStyle(isEnabled: output.isTerminal && !noColor && environment["TERM"] != "dumb")
    }

    func bold(_ text: String) -> String { wrap(text, "1") }
    func dim(_ text: String) -> String { wrap(text, "2") }

    private func wrap(_ text: String, _ code: String) -> String {
        isEnabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
