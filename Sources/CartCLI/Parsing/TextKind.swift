/// What a text option or argument accepts, of the kinds whose value stays text.
enum TextKind: Sendable {
    /// Any text (the service validates SKUs, names and IDs).
    case text
    /// A non-empty file path.
    case path
    /// A non-empty store location: a file path, `memory:` or `postgresql://…`.
    case location
    /// A decimal amount such as `12.99`, checked against the store currency once it is open.
    case amount

    var valueKind: ValueKind {
        switch self {
        case .text: .text
        case .path: .path
        case .location: .location
        case .amount: .amount
        }
    }
}
