import CartCore

/// Turns argv into an `Invocation`, checking it against the declared commands.
///
/// Options may appear anywhere after the tool name, before or after the command words, as
/// `--name value` or `--name=value`; `--` ends options. The parser never traps: every input
/// ends in an outcome or a `UsageError`.
struct CommandLineParser {
    let root: CommandSpec

    /// One word of argv, classified.
    private enum Token {
        /// An option; `valueMissing` when it takes a value and the next word reads as an
        /// option or there is none. `value` then holds that next word if no command declares
        /// it as an option (`--db -dash.db`): likely the value, which the error shows how to give.
        case option(name: String, value: String?, valueMissing: Bool)
        case positional(String)
    }

    /// Parses the arguments after the tool name.
    func parse(_ argv: [String]) throws(UsageError) -> ParseOutcome {
        var tokens = tokenize(argv)
        var positionals = Self.positionals(tokens)
        let optionNames = tokens.compactMap { token -> String? in
            if case .option(let name, _, _) = token { return name }
            return nil
        }
        let top = ResolvedCommand(ancestors: [], spec: root)
        if positionals.first == CommandTree.helpCommandName {
            let asksAboutHelp = positionals.count == 1 && optionNames.contains { $0 == "--help" || $0 == "-h" }
            let words = asksAboutHelp ? positionals : Array(positionals.dropFirst())
            return .help(try resolveHelpTarget(words, from: top))
        }
        var (command, used, unknownWord) = resolveCommand(positionals, from: top)
        // `cart --stor memory show`: the word after an option nobody declares was most likely
        // its value, not a mistyped command; the option is reported, below, against the
        // command the remaining words name.
        let unknownOption = unknownWord == nil ? nil : Self.unknownOption(before: used, in: tokens, known: takesValue)
        if let unknownOption {
            tokens[unknownOption.index] = .option(
                name: unknownOption.name, value: unknownOption.word, valueMissing: false)
            tokens.remove(at: unknownOption.index + 1)
            positionals = Self.positionals(tokens)
            (command, used, unknownWord) = resolveCommand(positionals, from: top)
        }
        // A group that only dispatches reports the unknown word first; one that runs itself
        // (`cart orders --limt 3`) reports its mistyped option first, as the likelier typo.
        if let unknownWord, command.spec.action == nil, unknownOption == nil {
            throw unknownCommand(unknownWord, in: command)
        }
        if optionNames.contains(GlobalOptions.help.spec.name) || optionNames.contains("-h") { return .help(command) }
        if optionNames.contains(GlobalOptions.version.spec.name) {
            return .version(json: optionNames.contains(GlobalOptions.json.spec.name))
        }

        // `cart products ad x --name X`: an option this command lacks but another declares says
        // the word was a mistyped subcommand (`add`), not that the option is unknown.
        if let unknownWord, optionNames.contains(where: { command.option(named: $0) == nil && takesValue($0) != nil }) {
            throw unknownCommand(unknownWord, in: command)
        }
        var invocation = Invocation(command: command)
        for token in tokens {
            guard case .option(let name, let value, let valueMissing) = token else { continue }
            try record(name, value: value, valueMissing: valueMissing, into: &invocation)
        }
        if let unknownWord { throw unknownCommand(unknownWord, in: command) }
        guard command.spec.action != nil else {
            // `cart` or `cart db` alone asks what there is; with options (`cart --cart show`,
            // where `show` became the option's value) a command is missing, and a script must
            // not read the help as success.
            guard optionNames.isEmpty else {
                let swallowed = tokens.lazy.compactMap { token -> (option: String, word: String)? in
                    guard case .option(let name, let value?, _) = token, command.spec.subcommand(named: value) != nil
                    else { return nil }
                    return (name, value)
                }.first
                throw missingCommand(in: command, swallowedBy: swallowed)
            }
            return .help(command)
        }
        try assign(Array(positionals.dropFirst(used)), into: &invocation)
        try checkRequiredAndExclusive(invocation)
        return .run(invocation)
    }

    /// The command that `argv`'s words name, as far as they name one: the command whose usage
    /// goes with an error found before parsing (an argument that is not UTF-8).
    func command(namedIn argv: [String]) -> ResolvedCommand {
        resolveCommand(Self.positionals(tokenize(argv)), from: ResolvedCommand(ancestors: [], spec: root)).command
    }

    /// Follows the command words from `top` as far as they name subcommands: the command, how
    /// many words it took, and the word that named no subcommand of a command without
    /// arguments, if any.
    private func resolveCommand(
        _ positionals: [String], from top: ResolvedCommand
    ) -> (command: ResolvedCommand, used: Int, unknownWord: String?) {
        var command = top
        var used = 0
        while !command.spec.subcommands.isEmpty, used < positionals.count {
            let word = positionals[used]
            guard let child = command.spec.subcommand(named: word), child.name != CommandTree.helpCommandName else {
                return (command, used, command.spec.arguments.isEmpty ? word : nil)
            }
            command = command.appending(child)
            used += 1
        }
        return (command, used, nil)
    }

    // MARK: - Tokens

    private static func positionals(_ tokens: [Token]) -> [String] {
        tokens.compactMap { token -> String? in
            if case .positional(let word) = token { return word }
            return nil
        }
    }

    /// The option just before the `position`th positional word, with its index and that word,
    /// when no command declares the option and it was written without `=value`.
    private static func unknownOption(
        before position: Int, in tokens: [Token], known: (String) -> Bool?
    ) -> (index: Int, name: String, word: String)? {
        var seen = 0
        for (index, token) in tokens.enumerated() {
            guard case .positional(let word) = token else { continue }
            guard seen == position else {
                seen += 1
                continue
            }
            guard index > 0, case .option(let name, nil, false) = tokens[index - 1], known(name) == nil else {
                return nil
            }
            return (index - 1, name, word)
        }
        return nil
    }

    /// Whether the option `name` (long or short) takes a value, or `nil` when no command
    /// declares it. An option name means the same everywhere (`ParserTests` checks it), so
    /// words can be classified before the command is known, and the first declaration found
    /// answers. Looked up per option word rather than through a table of the whole tree, which
    /// every run would build for the one or two options a command line holds.
    private func takesValue(_ name: String) -> Bool? {
        func declaration(in spec: CommandSpec) -> OptionSpec? {
            if let option = spec.options.first(where: { $0.name == name || $0.shortName == name }) { return option }
            for child in spec.subcommands {
                if let option = declaration(in: child) { return option }
            }
            return nil
        }
        let global = GlobalOptions.all.first { $0.name == name || $0.shortName == name }
        return (global ?? declaration(in: root))?.takesValue
    }

    private func tokenize(_ argv: [String]) -> [Token] {
        var tokens: [Token] = []
        var index = 0
        var optionsEnded = false
        while index < argv.count {
            let word = argv[index]
            index += 1
            if optionsEnded || !Self.looksLikeOption(word) {
                tokens.append(.positional(word))
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            guard word.hasPrefix("--") else {
                tokens.append(.option(name: word, value: nil, valueMissing: false))
                continue
            }
            let parts = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            if parts.count == 2 {
                tokens.append(.option(name: name, value: String(parts[1]), valueMissing: false))
            } else if takesValue(name) == true {
                if index < argv.count, !Self.looksLikeOption(argv[index]) {
                    tokens.append(.option(name: name, value: argv[index], valueMissing: false))
                    index += 1
                } else {
                    var undeclared: String?
                    if index < argv.count, argv[index] != "--", takesValue(Self.optionName(of: argv[index])) == nil {
                        undeclared = argv[index]
                    }
                    tokens.append(.option(name: name, value: undeclared, valueMissing: true))
                }
            } else {
                tokens.append(.option(name: name, value: nil, valueMissing: false))
            }
        }
        return tokens
    }

    /// The option an option word names: `--db` for `--db=x`.
    private static func optionName(of word: String) -> String {
        String(word.prefix { $0 != "=" })
    }

    /// `--x`, `-h` and `--` are options; `-`, `-1` and `-1.5` are values, so that a negative
    /// quantity is reported as an invalid quantity rather than an unknown option.
    static func looksLikeOption(_ word: String) -> Bool {
        let bytes = Array(word.utf8)
        guard bytes.count >= 2, bytes[0] == UInt8(ascii: "-") else { return false }
        if bytes[1] == UInt8(ascii: "-") { return true }
        let second = bytes[1]
        return !(second >= UInt8(ascii: "0") && second <= UInt8(ascii: "9")) && second != UInt8(ascii: ".")
    }

    // MARK: - Commands

    private func resolveHelpTarget(
        _ words: [String], from top: ResolvedCommand
    ) throws(UsageError)
        -> ResolvedCommand
    {
        var command = top
        for word in words {
            guard let child = command.spec.subcommand(named: word) else { throw unknownCommand(word, in: command) }
            command = command.appending(child)
        }
        return command
    }

    /// The error for a command line that names no command of `command`'s; `swallowed` is an
    /// option that took a command's name as its value (`cart --cart show`), which it names.
    private func missingCommand(in command: ResolvedCommand, swallowedBy swallowed: (option: String, word: String)?)
        -> UsageError
    {
        let names = command.spec.subcommands.prefix(2).map { "'\($0.name)'" }.joined(separator: " or ")
        let name = command.isRoot ? "" : " after '\(command.fullName)'"
        let taken = swallowed.map { " ('\($0.word)' was read as the value of \($0.option))" } ?? ""
        return UsageError("Missing the command to run\(name), such as \(names)\(taken).", command: command)
    }

    private func unknownCommand(_ word: String, in command: ResolvedCommand) -> UsageError {
        let names = command.spec.subcommands.map(\.name)
        var message =
            command.isRoot
            ? "Unknown command '\(DisplayText.clean(word))'."
            : "Unknown subcommand '\(DisplayText.clean(word))' for '\(command.fullName)'."
        if let match = Suggestion.closest(to: word, in: names) { message += " Did you mean '\(match)'?" }
        return UsageError(message, command: command)
    }

    // MARK: - Options and arguments

    /// Options other tools name otherwise, which no spelling distance finds: `--port` for
    /// `serve --listen HOST:PORT`, as most servers call it.
    static let namesElsewhere = [
        "--port": "--listen", "--host": "--listen", "--bind": "--listen", "--address": "--listen",
        "--token": "--admin-token", "--database": "--db",
    ]

    private func record(
        _ name: String, value: String?, valueMissing: Bool, into invocation: inout Invocation
    )
        throws(UsageError)
    {
        let command = invocation.command
        guard let spec = command.option(named: name) else {
            var message = "Unknown option '\(DisplayText.clean(name))'."
            let names = command.allOptions.map(\.name)
            if let match = Suggestion.closest(to: name, in: names) {
                message += " Did you mean '\(match)'?"
            } else if let known = Self.namesElsewhere[name], let option = command.option(named: known) {
                message += " Did you mean '\(option.synopsis)'?"
            } else if !command.spec.arguments.isEmpty {
                // `cart add -dash`: a SKU may start with a dash, and is read as one only after `--`.
                message += " To give '\(DisplayText.clean(name))' as an argument, write it after '--' (and options before that)."
            }
            throw UsageError(message, command: command)
        }
        guard spec.takesValue else {
            if value != nil { throw UsageError("Option '\(spec.name)' does not take a value.", command: command) }
            invocation.flags.insert(spec.name)
            return
        }
        guard let value, !valueMissing else {
            var message = "Missing value for '\(spec.synopsis)'."
            if let value {
                // `--db -dash.db`: a value that starts with '-' reads as an option.
                let word = DisplayText.clean(value)
                let file = spec.kind == .path || spec.kind == .location ? " (or './\(word)' for a file)" : ""
                message += " '\(word)' reads as an option; to give it as the value, write '\(spec.name)=\(word)'\(file)."
            }
            throw UsageError(message, command: command)
        }
        invocation.options[spec.name] = try Self.convert(value, kind: spec.kind, label: "'\(spec.synopsis)'", command)
    }

    private func assign(_ words: [String], into invocation: inout Invocation) throws(UsageError) {
        let command = invocation.command
        var remaining = words[...]
        for argument in command.spec.arguments {
            if argument.isRepeating {
                // Only `help` repeats an argument, and the parser answers it before this.
                for word in remaining {
                    _ = try Self.convert(word, kind: argument.kind, label: "'\(argument.label)'", command)
                }
                remaining = []
                break
            }
            guard let word = remaining.popFirst() else {
                if argument.isOptional { break }
                throw UsageError("Missing expected argument '\(argument.label)'.", command: command)
            }
            invocation.arguments[argument.name] = try Self.convert(
                word, kind: argument.kind, label: "'\(argument.label)'", command)
        }
        if let extra = remaining.first {
            // A word that looks like an option is an argument only after `--`.
            let hint = Self.looksLikeOption(extra) ? " After '--' every word is an argument: put options before '--'." : ""
            throw UsageError("Unexpected argument '\(DisplayText.clean(extra))'.\(hint)", command: command)
        }
    }

    private func checkRequiredAndExclusive(_ invocation: Invocation) throws(UsageError) {
        let command = invocation.command
        func given(_ name: String) -> Bool { invocation.options[name] != nil || invocation.flags.contains(name) }
        for option in command.spec.options where option.isRequired && !given(option.name) {
            throw UsageError("Missing expected argument '\(option.synopsis)'.", command: command)
        }
        for group in command.spec.exclusive {
            let together = group.filter(given)
            if together.count > 1 {
                throw UsageError("'\(together[0])' cannot be used with '\(together[1])'.", command: command)
            }
        }
    }

    /// The value converted to its kind, or a usage error naming `label`.
    static func convert(
        _ value: String, kind: ValueKind, label: String, _ command: ResolvedCommand
    )
        throws(UsageError) -> ParsedValue
    {
        switch kind.parse(value) {
        case .success(let parsed):
            return parsed
        case .failure(let problem):
            // A phrase that ends in a question ("Did you mean 'day'?") ends the sentence itself.
            let end = problem.phrase.hasSuffix("?") ? "" : "."
            throw UsageError(
                "The value '\(DisplayText.clean(value))' is invalid for \(label): \(problem.phrase)\(end)", command: command)
        }
    }
}
