#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A parsed, checked command line: which command, and its values already converted.
struct Invocation {
    /// The command to run.
    let command: ResolvedCommand
    /// Option values by long name; when an option is repeated the last one wins.
    var options: [String: ParsedValue] = [:]
    /// Flags given, by long name.
    var flags: Set<String> = []
    /// Positional values by argument name (all values of a repeating argument in `rest`).
    var arguments: [String: ParsedValue] = [:]
    /// The values of a repeating argument.
    var rest: [String] = []

    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// Whether the option was on the command line (as opposed to the environment).
    func has(_ name: String) -> Bool { options[name] != nil || flags.contains(name) }

    func text(_ name: String) -> String? { (options[name] ?? arguments[name])?.text }

    func integer(_ name: String) -> Int? { (options[name] ?? arguments[name])?.integer }

    func date(_ name: String) -> Date? { (options[name] ?? arguments[name])?.date }
}

/// What the command line asks for.
enum ParseOutcome {
    /// Run a command.
    case run(Invocation)
    /// Print a command's help on stdout.
    case help(ResolvedCommand)
    /// Print the version on stdout.
    case version
}
