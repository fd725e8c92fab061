/// One positional argument as the parser, the help text and the reference see it. Commands
/// declare arguments as typed `Argument`s, which carry one of these.
struct ArgumentSpec: ArgumentDeclaration {
    /// The placeholder, shown as `<sku>`.
    let name: String
    /// What the value must look like.
    let kind: ValueKind
    /// One line for the help text.
    let help: String
    /// Whether it may be left out.
    let isOptional: Bool
    /// Whether it takes every remaining positional (only the last argument may).
    let isRepeating: Bool
    /// The default shown in help, if any.
    let defaultText: String?

    /// An argument that no action reads, such as `help`'s command words, which the parser
    /// answers itself; every other argument is declared as a typed `Argument`.
    init(
        _ name: String, _ kind: ValueKind = .text, help: String, optional: Bool = false, repeating: Bool = false,
        defaultText: String? = nil
    ) {
        self.name = name
        self.kind = kind
        self.help = help
        self.isOptional = optional
        self.isRepeating = repeating
        self.defaultText = defaultText
    }

    var spec: ArgumentSpec { self }

    /// How the argument is written in usage lines and errors: `<sku>`, `[<quantity>]`, `[<command> ...]`.
    var synopsis: String {
        let base = isRepeating ? "<\(name)> ..." : "<\(name)>"
        return isOptional ? "[\(base)]" : base
    }

    /// `<sku>`, as error messages name it.
    var label: String { "<\(name)>" }
}
