/// The command line is wrong: exit 64, with the command's usage line and a pointer to its help.
struct UsageError: Error {
    /// One line, without the `Error: ` prefix.
    let message: String
    /// The command whose usage to show; the tool itself when no command was recognised.
    let command: ResolvedCommand

    init(_ message: String, command: ResolvedCommand) {
        self.message = message
        self.command = command
    }
}
