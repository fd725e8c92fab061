/// What the command line asks for.
enum ParseOutcome {
    /// Run a command.
    case run(Invocation)
    /// Print a command's help on stdout.
    case help(ResolvedCommand)
    /// Print the version on stdout, as JSON with `--json`.
    case version(json: Bool)
}
