/// A command together with the words that led to it, as `cart products add`.
struct ResolvedCommand: Sendable {
    /// The commands above this one, from the root down.
    let ancestors: [CommandSpec]
    /// The command itself.
    let spec: CommandSpec

    /// `cart products add`.
    var fullName: String { (ancestors.map(\.name) + [spec.name]).joined(separator: " ") }

    /// Whether this is the tool itself rather than one of its commands.
    var isRoot: Bool { ancestors.isEmpty }

    /// The command's own options and flags followed by the global ones.
    var allOptions: [OptionSpec] { spec.options + GlobalOptions.all }

    func option(named name: String) -> OptionSpec? {
        allOptions.first { $0.name == name || $0.shortName == name }
    }

    func appending(_ child: CommandSpec) -> ResolvedCommand {
        ResolvedCommand(ancestors: ancestors + [spec], spec: child)
    }
}
