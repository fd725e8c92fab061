/// Why a ``CartIDKey`` cannot be made.
public enum CartIDKeyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The key has fewer than ``CartIDKey/minimumLength`` bytes.
    case tooShort(Int)

    /// A one-line human description.
    public var description: String {
        switch self {
        case .tooShort(let count):
            "a cart ID key needs at least \(CartIDKey.minimumLength) bytes, not \(count)"
        }
    }
}
