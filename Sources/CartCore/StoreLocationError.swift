/// A store location that cannot be opened as given.
public enum StoreLocationError: CategorizedError, Hashable, Sendable, CustomStringConvertible {
    /// The location looks like a URL of a scheme no backend handles.
    case unknownScheme(location: String, scheme: String, known: [String])
    /// The location cannot hold a store: a directory, a device, an empty name.
    case unusable(location: String, reason: String)
    /// No store exists there and the caller asked not to create one.
    case noStore(location: String)

    public var category: ErrorCategory {
        switch self {
        case .unknownScheme: .invalidInput
        case .unusable: .storageFailure
        case .noStore: .notFound
        }
    }

    public var description: String {
        switch self {
        case .unknownScheme(let location, let scheme, let known):
            // "a file path or memory:", "a file path, memory: or postgresql://…"
            var list = "a file path"
            for (index, example) in known.enumerated() { list += (index == known.count - 1 ? " or " : ", ") + example }
            return "'\(location.displayable)' looks like a URL, but no store handles '\(scheme.displayable):'; "
                + "use \(list) (a file whose name starts like a URL is written with a leading './')."
        case .unusable(let location, let reason):
            return "'\(location.displayable)' cannot hold a store: \(reason)."
        case .noStore(let location):
            return "No store at '\(location.displayable)' yet."
        }
    }
}
