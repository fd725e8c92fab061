/// One positional argument a command declares.
struct ArgumentSpec: Sendable {
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

    init(_ name: String, _ kind: ValueKind = .text, help: String, optional: Bool = false, repeating: Bool = false) {
        self.name = name
        self.kind = kind
        self.help = help
        self.isOptional = optional
        self.isRepeating = repeating
    }

    /// How the argument is written in usage lines and errors: `<sku>`, `[<quantity>]`, `[<command> ...]`.
    var synopsis: String {
        let base = isRepeating ? "<\(name)> ..." : "<\(name)>"
        return isOptional ? "[\(base)]" : base
    }

    /// `<sku>`, as error messages name it.
    var label: String { "<\(name)>" }
}
