/// ANSI emphasis for people at a terminal, and nothing anywhere else.
struct TextStyle {
    /// Whether escape codes are written at all.
    let isEnabled: Bool

    /// Colour only when stdout is a terminal, `NO_COLOR` is not set (to anything, see
    /// no-color.org) and the terminal is not `dumb`.
    static func forOutput(_ output: any CommandOutput, environment: [String: String]) -> TextStyle {
        TextStyle(isEnabled: output.isTerminal && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb")
    }

    func bold(_ text: String) -> String { wrap(text, "1") }
    func dim(_ text: String) -> String { wrap(text, "2") }
    func green(_ text: String) -> String { wrap(text, "32") }

    private func wrap(_ text: String, _ code: String) -> String {
        isEnabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
