/// A store location that cannot be opened as given.
public enum StoreLocationError: CategorizedError, Hashable, Sendable, CustomStringConvertible {
    /// The location looks like a URL (`mysql://…`, or a scheme with a colon, `postgresql:/x`)
    /// that no backend handles.
    case unknownScheme(location: String, scheme: String, known: [String])
    /// The location looks like a libpq `key=value` connection string (`host=/tmp dbname=shop`),
    /// which is not a location; `keyword` is its first key. The rest is not kept: it may hold
    /// a password.
    case connectionString(keyword: String)
    /// The location starts with a home directory no shell expanded (`~/shop.sqlite3`,
    /// `~alice/shop.sqlite3`): taken as it is, it would make a folder named `~` here.
    case unexpandedHome(location: String)
    /// The location starts or ends with white space (`' postgresql://…'`, a line end from an
    /// environment file): taken as it is, a URL would become a file name. `location` is the
    /// rest, as messages show it.
    case surroundingWhitespace(location: String)
    /// The location cannot hold a store: a directory, a device, an empty name.
    case unusable(location: String, reason: String)
    /// No store exists there and the caller asked not to create one.
    case noStore(location: String)

    public var category: ErrorCategory {
        switch self {
        case .unknownScheme, .connectionString, .unexpandedHome, .surroundingWhitespace: .invalidInput
        case .unusable: .storageFailure
        case .noStore: .notFound
        }
    }

    /// Why the location cannot hold a store (`its directory '/x' does not exist`), for
    /// `unusable`; nil for the others, whose description says it all.
    public var reason: String? {
        guard case .unusable(_, let reason) = self else { return nil }
        return reason
    }

    public var description: String {
        switch self {
        case .unknownScheme(let location, let scheme, let known):
            // "a file path or memory:", "a file path, memory: or postgresql://…"
            var list = "a file path"
            for (index, example) in known.enumerated() { list += (index == known.count - 1 ? " or " : ", ") + example }
            // A scheme that starts a known one (`postgres:/x`, `postgresql:x`) is taken as a
            // misshapen location of that kind rather than an unknown kind.
            let what = known.first { $0.prefix { $0 != ":" }.hasPrefix(scheme) }.map { "not one of the form \($0)" }
                ?? "no store handles '\(scheme.displayable):'"
            return "'\(location.displayable)' looks like a URL, but \(what); "
                + "use \(list) (a file whose name starts like a URL is written with a leading './')."
        case .connectionString(let keyword):
            return "'\(keyword.displayable)=…' looks like a key=value connection string, which is not a store location; "
                + "write it as a postgresql://… URL (a password goes in PGPASSWORD or ~/.pgpass)."
        case .unexpandedHome(let location):
            return "'\(location.displayable)' starts with '~', which no shell expanded (a shell leaves it as it is after '=' "
                + "and inside quotes); write the home directory's path, or './\(location.displayable)' for a folder of that name here."
        case .surroundingWhitespace(let location) where location.isEmpty:
            return "The store location is nothing but white space (spaces, tabs or line ends); "
                + "name a file or a URL."
        case .surroundingWhitespace(let location):
            return "The store location '\(location.displayable)' is written with white space (a space, tab or line end) "
                + "before or after it; remove it."
        case .unusable(let location, let reason):
            return "'\(location.displayable)' cannot hold a store: \(reason)."
        case .noStore(let location):
            return "No store at '\(location.displayable)' yet."
        }
    }
}
