/// Why a ``CartIDKey`` cannot be had.
public enum CartIDKeyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The key has fewer than ``CartIDKey/minimumLength`` bytes.
    case tooShort(Int)
    /// The key file cannot be read, created or written.
    case unusable(path: String, reason: String)
    /// The key file does not hold at least 64 lowercase hex digits.
    case malformed(path: String)

    /// A one-line human description.
    public var description: String {
        switch self {
        case .tooShort(let count):
            "a cart ID key needs at least \(CartIDKey.minimumLength) bytes, not \(count)"
        case .unusable(let path, let reason):
            "cannot use the cart ID key file '\(path)': \(reason)"
        case .malformed(let path):
            "the cart ID key file '\(path)' does not hold a key (at least 64 lowercase hex digits)"
        }
    }
}
