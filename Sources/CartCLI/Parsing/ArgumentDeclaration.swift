/// A positional argument a command declares (`Argument`): the parser, help and the reference
/// read its `spec`.
protocol ArgumentDeclaration: Sendable {
    var spec: ArgumentSpec { get }
}
