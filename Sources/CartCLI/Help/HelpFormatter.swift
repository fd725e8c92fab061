/// Writes help in swift-argument-parser's layout (`OVERVIEW:`, `USAGE:`, `ARGUMENTS:`,
/// `OPTIONS:`, `SUBCOMMANDS:`) from the command declarations.
enum HelpFormatter {
    /// Descriptions start in this column, as in swift-argument-parser.
    static let labelColumn = 26
    /// Lines wrap before this column.
    static let width = 80

    /// The full help of a command; `globalOptions: false` leaves out the section every
    /// command repeats, as the command reference lists it once.
    static func help(for command: ResolvedCommand, globalOptions: Bool = true) -> String {
        let spec = command.spec
        var sections: [String] = [wrap("OVERVIEW: \(spec.abstract)", indent: 0)]
        if let discussion = spec.discussion { sections.append(wrap(discussion, indent: 0)) }
        // Later usage lines line up under the first; a wrapped line indents a little more.
        let usage = usageWords(for: command).enumerated().map { index, words in
            wrapWords(words, first: index == 0 ? "USAGE: " : "       ", indent: 9)
        }
        sections.append(usage.joined(separator: "\n"))
        if !spec.arguments.isEmpty {
            sections.append(
                section("ARGUMENTS", spec.arguments.map { ($0.label, annotated($0.help, default: $0.defaultText)) }))
        }
        if command.isRoot {
            sections.append(section("OPTIONS", GlobalOptions.all.map(row)))
        } else {
            if !spec.options.isEmpty { sections.append(section("OPTIONS", spec.options.map(row))) }
            if globalOptions { sections.append(section("GLOBAL OPTIONS", GlobalOptions.all.map(row))) }
        }
        if !spec.subcommands.isEmpty {
            var text = section("SUBCOMMANDS", spec.subcommands.map { ($0.name, $0.abstract) })
            let path = (command.ancestors.dropFirst().map(\.name) + (command.isRoot ? [] : [spec.name]))
            let helpCommand = ([command.ancestors.first?.name ?? spec.name, "help"] + path).joined(separator: " ")
            text += "\n\n  See '\(helpCommand) <subcommand>' for detailed help."
            sections.append(text)
        }
        return sections.joined(separator: "\n\n") + "\n"
    }

    /// How to run a command, and how to reach its subcommands, each as words that wrapping
    /// keeps whole (`[--stock <n> | --no-stock]` is one word).
    static func usageWords(for command: ResolvedCommand) -> [[String]] {
        let spec = command.spec
        if command.isRoot { return [[spec.name, "<subcommand>", "[<options>]"]] }
        var lines: [[String]] = []
        if spec.action != nil || spec.subcommands.isEmpty {
            var words = [command.fullName] + spec.arguments.map(\.synopsis)
            var shown: Set<String> = []
            for option in spec.options where !shown.contains(option.name) {
                if let group = spec.exclusive.first(where: { $0.contains(option.name) }) {
                    let members = spec.options.filter { group.contains($0.name) }
                    members.forEach { shown.insert($0.name) }
                    words.append("[" + members.map(\.synopsis).joined(separator: " | ") + "]")
                } else {
                    shown.insert(option.name)
                    words.append(option.isRequired ? option.synopsis : "[\(option.synopsis)]")
                }
            }
            lines.append(words)
        }
        if !spec.subcommands.isEmpty { lines.append([command.fullName, "<subcommand>"]) }
        return lines
    }

    /// The one usage line shown under a usage error, unwrapped so the error stays three lines.
    static func usage(for command: ResolvedCommand) -> String {
        usageWords(for: command).first?.joined(separator: " ") ?? command.fullName
    }

    private static func row(_ option: OptionSpec) -> (String, String) {
        let label = option.shortName.map { "\($0), \(option.synopsis)" } ?? option.synopsis
        var values: [String]?
        if case .choice(let words) = option.kind { values = words }
        return (
            label,
            annotated(option.help, values: values, environment: option.environment, default: option.defaultText)
        )
    }

    /// `help (values: sqlite, memory) (env: CART_STORE, default: sqlite)`: the words an option
    /// accepts, and what applies when the value is not given.
    private static func annotated(
        _ help: String, values: [String]? = nil, environment: String? = nil, default defaultText: String?
    ) -> String {
        var text = help
        if let values { text += " (values: " + values.joined(separator: ", ") + ")" }
        var notes: [String] = []
        if let environment { notes.append("env: \(environment)") }
        if let defaultText { notes.append("default: \(defaultText)") }
        return notes.isEmpty ? text : text + " (" + notes.joined(separator: ", ") + ")"
    }

    private static func section(_ title: String, _ rows: [(label: String, help: String)]) -> String {
        var text = "\(title):"
        for (label, help) in rows {
            let start = "  " + label
            let body = wrap(help, indent: labelColumn)
            let firstLine = body.drop { $0 == " " }
            if start.count + 2 <= labelColumn {
                text += "\n" + start + String(repeating: " ", count: labelColumn - start.count) + firstLine
            } else {
                text += "\n" + start + "\n" + body
            }
        }
        return text
    }

    /// `text` word-wrapped to `width`, every line indented by `indent` spaces; its own line
    /// breaks start new paragraphs.
    static func wrap(_ text: String, indent: Int) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { wrapParagraph(String($0), indent: indent) }
            .joined(separator: "\n")
    }

    private static func wrapParagraph(_ text: String, indent: Int) -> String {
        let pad = String(repeating: " ", count: indent)
        return wrapWords(text.split(separator: " ").map(String.init), first: pad, indent: indent)
    }

    /// `words` filled into lines of at most `width` columns: the first line starts with
    /// `first`, the others with `indent` spaces. A word longer than a line gets a line of its own.
    private static func wrapWords(_ words: [String], first: String, indent: Int) -> String {
        var lines: [String] = []
        var line = first
        var lineIsEmpty = true
        for word in words {
            if !lineIsEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = String(repeating: " ", count: indent)
                lineIsEmpty = true
            }
            line += lineIsEmpty ? word : " " + word
            lineIsEmpty = false
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}
