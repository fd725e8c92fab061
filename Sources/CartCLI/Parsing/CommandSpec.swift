/// A command as declared: its words, help, arguments, options and subcommands, and what runs
/// it. Help, parsing, suggestions and the command reference all read this one declaration.
struct CommandSpec: Sendable {
    /// What a command does once its arguments are parsed.
    typealias Action = @Sendable (CommandRunner) throws -> Void

    /// The word that selects the command, such as `add`.
    let name: String
    /// One line for `OVERVIEW:` and the parent's `SUBCOMMANDS:` list.
    let abstract: String
    /// More text after the overview, if any.
    var discussion: String?
    /// Positional arguments, in order.
    var arguments: [ArgumentSpec]
    /// Options and flags of this command (the global ones are added by the tree).
    var options: [OptionSpec]
    /// Groups of option names of which at most one may be given.
    var exclusive: [[String]]
    /// Commands below this one, such as `products add`.
    var subcommands: [CommandSpec]
    /// What runs the command; `nil` for a group, which prints its help.
    var action: Action?
    /// Whether the command puts something into the store (products, settings), so that it
    /// creates a store that does not exist yet. Every other command takes a missing store for
    /// a mistyped `--db` and says so, rather than leave a new, empty one behind.
    var createsStore: Bool

    init(
        _ name: String, abstract: String, discussion: String? = nil, arguments: [any ArgumentDeclaration] = [],
        options: [any OptionDeclaration] = [], exclusive: [[any OptionDeclaration]] = [],
        subcommands: [CommandSpec] = [], createsStore: Bool = false, action: Action? = nil
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments.map(\.spec)
        self.options = options.map(\.spec)
        self.exclusive = exclusive.map { $0.map(\.spec.name) }
        self.subcommands = subcommands
        self.createsStore = createsStore
        self.action = action
    }

    func subcommand(named name: String) -> CommandSpec? {
        subcommands.first { $0.name == name }
    }
}
