/// The command reference in docs/CLI.md, generated from the same declarations as `--help`, so
/// a test can fail when the documentation drifts from the tool.
enum CommandReference {
    /// Marks where the generated reference starts in a Markdown file.
    static let beginMarker = "<!-- BEGIN GENERATED COMMAND REFERENCE: edit Sources/CartCLI, not this block -->"
    /// Marks where it ends.
    static let endMarker = "<!-- END GENERATED COMMAND REFERENCE -->"

    /// Every command's help, the tool first, each under a heading naming the command; the
    /// global options appear once, in the tool's own help.
    static func markdown() -> String {
        var out = ""
        func visit(_ command: ResolvedCommand) {
            out +=
                "### `\(command.fullName)`\n\n```text\n\(HelpFormatter.help(for: command, globalOptions: false))```\n\n"
            for child in command.spec.subcommands where child.name != CommandTree.helpCommandName {
                visit(command.appending(child))
            }
        }
        visit(ResolvedCommand(ancestors: [], spec: CommandTree.root))
        return out
    }

    /// `document` with the text between the markers replaced by the current reference, or
    /// `nil` when it has no markers.
    static func updating(_ document: String) -> String? {
        guard let begin = document.firstRange(of: beginMarker), let end = document.firstRange(of: endMarker),
            begin.upperBound <= end.lowerBound
        else { return nil }
        return String(document[..<begin.upperBound]) + "\n\n" + markdown() + String(document[end.lowerBound...])
    }
}
