/// One option or flag as the parser, the help text and the reference see it: its names, its
/// kind of value and its help. Commands declare options as typed `Option`s and `Flag`s, which
/// carry one of these.
struct OptionSpec: Sendable {
    /// The long name with its dashes, such as `--limit`.
    let name: String
    /// A short alias such as `-h`, if any.
    let shortName: String?
    /// The placeholder of the value (`n` shows as `<n>`); `nil` for a flag.
    let valueName: String?
    /// What the value must look like.
    let kind: ValueKind
    /// One line for the help text.
    let help: String
    /// Whether the command cannot run without it.
    let isRequired: Bool
    /// The environment variable read when the option is absent.
    let environment: String?
    /// The default shown in help, if any.
    let defaultText: String?

    init(
        name: String, shortName: String? = nil, valueName: String?, kind: ValueKind = .text, help: String,
        isRequired: Bool = false, environment: String? = nil, defaultText: String? = nil
    ) {
        self.name = name
        self.shortName = shortName
        self.valueName = valueName
        self.kind = kind
        self.help = help
        self.isRequired = isRequired
        self.environment = environment
        self.defaultText = defaultText
    }

    /// Whether the option takes a value.
    var takesValue: Bool { valueName != nil }

    /// How the option is written in usage lines and errors: `--limit <n>` or `--json`.
    var synopsis: String {
        guard let valueName else { return name }
        return "\(name) <\(valueName)>"
    }
}
