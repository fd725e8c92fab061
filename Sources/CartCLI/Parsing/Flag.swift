/// A flag a command declares: present or not. `runner[flag]` reads it.
///
/// ```swift
/// static let all = Flag("--all", help: "Include inactive products.")
/// let includeInactive = runner[ProductCommands.all]
/// ```
struct Flag: OptionDeclaration {
    let spec: OptionSpec

    init(_ name: String, short: String? = nil, help: String) {
        spec = OptionSpec(name: name, shortName: short, valueName: nil, help: help)
    }
}
