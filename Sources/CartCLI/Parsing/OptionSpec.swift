/// One option or flag a command declares: the parser, the help text and the README reference
/// are all generated from these declarations.
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

    /// A flag: present or not.
    static func flag(_ name: String, short: String? = nil, help: String) -> OptionSpec {
        OptionSpec(
            name: name, shortName: short, valueName: nil, kind: .text, help: help, isRequired: false,
            environment: nil, defaultText: nil)
    }

    /// An option that takes a value.
    static func option(
        _ name: String, _ valueName: String, _ kind: ValueKind = .text, help: String, required: Bool = false,
        environment: String? = nil, default defaultText: String? = nil
    ) -> OptionSpec {
        OptionSpec(
            name: name, shortName: nil, valueName: valueName, kind: kind, help: help, isRequired: required,
            environment: environment, defaultText: defaultText)
    }

    /// Whether the option takes a value.
    var takesValue: Bool { valueName != nil }

    /// How the option is written in usage lines and errors: `--limit <n>` or `--json`.
    var synopsis: String {
        guard let valueName else { return name }
        return "\(name) <\(valueName)>"
    }
}
