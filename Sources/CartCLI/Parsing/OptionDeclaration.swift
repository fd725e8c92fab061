/// An option or flag a command declares (`Option`, `Flag`): the parser, help, suggestions and
/// the reference read its `spec`.
protocol OptionDeclaration: Sendable {
    var spec: OptionSpec { get }
}
