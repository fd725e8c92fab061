/// A parsed, checked command line: which command, and its values already converted. Values are
/// read through the declarations that define them (`try invocation.value(of: OrderCommands.limit)`).
struct Invocation {
    /// The command to run.
    let command: ResolvedCommand
    /// Option values by long name; when an option is repeated the last one wins.
    var options: [String: ParsedValue] = [:]
    /// Flags given, by long name.
    var flags: Set<String> = []
    /// Positional values by argument name.
    var arguments: [String: ParsedValue] = [:]

    /// Whether the option or flag was on the command line (as opposed to the environment).
    func isGiven(_ option: some OptionDeclaration) -> Bool {
        options[option.spec.name] != nil || flags.contains(option.spec.name)
    }

    /// Whether the flag was given.
    subscript(flag: Flag) -> Bool { flags.contains(flag.spec.name) }

    /// The option's value from the command line, else its default.
    ///
    /// - Throws: `UsageError` for a required option that is missing (the parser refuses such
    ///   a command line first).
    func value<Value>(of option: Option<Value>) throws(UsageError) -> Value {
        guard let value = option.reader.value(from: options[option.spec.name]) else {
            throw missing(option.spec.synopsis)
        }
        return value
    }

    /// The argument's value, else its default.
    ///
    /// - Throws: `UsageError` for a required argument that is missing (the parser refuses such
    ///   a command line first).
    func value<Value>(of argument: Argument<Value>) throws(UsageError) -> Value {
        guard let value = argument.reader.value(from: arguments[argument.spec.name]) else {
            throw missing(argument.spec.label)
        }
        return value
    }

    private func missing(_ label: String) -> UsageError {
        UsageError("Missing expected argument '\(label)'.", command: command)
    }
}
