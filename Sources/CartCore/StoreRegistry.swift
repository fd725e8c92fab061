/// Opens stores by location: the one place a location string (`--db`, `CART_DB`, a
/// configuration file) becomes a repository.
///
/// ```swift
/// let registry = StoreRegistry([InMemoryCartRepository.backend, SQLiteCartRepository.backend])
/// let repository = try registry.open("memory:")              // in-memory
/// let shop = try registry.open("/var/lib/shop/cart.sqlite3") // a SQLite file
/// ```
///
/// Backends are asked in order; the first that accepts the location opens it. A location that
/// looks like a URL (`scheme://…`, or `scheme:` and more) or a libpq connection string
/// (`host=… dbname=…`) but that no backend accepts is refused rather than taken as a file
/// name, so a mistyped location never becomes a new, empty store; so is a path that starts
/// with a `~` no shell expanded, and one with white space before or after it.
public struct StoreRegistry: Sendable {
    /// The backends asked, in order.
    public let backends: [any StoreBackend]

    /// Creates a registry of these backends.
    public init(_ backends: [any StoreBackend]) {
        self.backends = backends
    }

    /// The backend that handles `location`.
    ///
    /// - Throws: `StoreLocationError.unknownScheme` when no backend accepts it,
    ///   `.unexpandedHome` for `~/…` or `~user/…`, `.surroundingWhitespace` for a location
    ///   with white space before or after it.
    public func backend(for location: String) throws(StoreLocationError) -> any StoreBackend {
        if location.first?.isWhitespace == true || location.last?.isWhitespace == true {
            let trimmed = String(location.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
            throw .surroundingWhitespace(location: displayLocation(trimmed))
        }
        if Self.startsWithUnexpandedHome(location) { throw .unexpandedHome(location: location) }
        if let backend = backends.first(where: { $0.accepts(location) }) { return backend }
        if let keyword = Self.connectionStringKeyword(of: location) { throw .connectionString(keyword: keyword) }
        let scheme = Self.urlScheme(of: location) ?? Self.schemePrefix(of: location) ?? location
        throw .unknownScheme(
            location: displayLocation(location), scheme: scheme, known: backends.flatMap(\.locationExamples))
    }

    /// `location` as messages and status show it, with any password masked: as the backend
    /// that accepts it shows it, and a URL no backend accepts (a misspelt scheme) with the
    /// password of its user information (`scheme://user:***@host`) masked.
    public func displayLocation(_ location: String) -> String {
        if let backend = backends.first(where: { $0.accepts(location) }) { return backend.displayLocation(location) }
        guard let scheme = Self.urlScheme(of: location) else { return location }
        let rest = location.dropFirst(scheme.count + 3)
        // The user information is what comes before the first `@` ahead of any `/`.
        guard let at = rest.firstIndex(where: { $0 == "@" || $0 == "/" }), rest[at] == "@",
            let colon = rest[..<at].firstIndex(of: ":")
        else { return location }
        return location[..<colon] + ":***" + rest[at...]
    }

    /// Opens the store at `location`.
    ///
    /// - Throws: `StoreLocationError`, `MigrationError`, or the backend's storage error.
    public func open(_ location: String, options: StoreOptions = StoreOptions()) throws -> any MaintainableRepository {
        try backend(for: location).open(location, options: options)
    }

    /// Whether a backend that takes plain file paths should leave `location` alone: it is
    /// written as a URL or starts with a scheme (`postgresql:/x`, `file:shop.db`), or it is a
    /// libpq connection string.
    public static func looksLikeURLOrConnectionString(_ location: String) -> Bool {
        urlScheme(of: location) != nil || schemePrefix(of: location) != nil || connectionStringKeyword(of: location) != nil
    }

    /// Whether `location` is `~`, or starts with `~/` or `~name/`: a home directory a shell
    /// would have expanded at the start of a word. `~backup.sqlite3` and `./~/x` are names.
    package static func startsWithUnexpandedHome(_ location: String) -> Bool {
        guard location.hasPrefix("~") else { return false }
        guard let slash = location.firstIndex(of: "/") else { return location == "~" }
        let user = location[location.index(after: location.startIndex)..<slash]
        return user.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
    }

    /// The scheme a location starts with, followed by a colon (`postgresql` for
    /// `postgresql:/x`), or nil. One letter before the colon is not taken as a scheme.
    static func schemePrefix(of location: String) -> String? {
        guard let colon = location.firstIndex(of: ":") else { return nil }
        let scheme = location[..<colon]
        guard scheme.count >= 2, isScheme(scheme) else { return nil }
        return String(scheme)
    }

    /// The libpq keywords a connection string most often starts with.
    private static let connectionKeywords: Set = [
        "host", "hostaddr", "port", "dbname", "user", "password", "service", "sslmode", "options",
        "application_name", "connect_timeout", "passfile",
    ]

    /// The first key of a libpq `key=value` connection string (`host` for `host=/tmp
    /// dbname=shop`), or nil.
    static func connectionStringKeyword(of location: String) -> String? {
        let text = location.drop { $0 == " " }
        guard let equals = text.firstIndex(of: "=") else { return nil }
        var keyword = text[..<equals]
        while keyword.last == " " { keyword.removeLast() }
        return connectionKeywords.contains(String(keyword)) ? String(keyword) : nil
    }

    private static func isScheme(_ text: Substring) -> Bool {
        let scalars = text.unicodeScalars
        guard let first = scalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return scalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || "+-.".unicodeScalars.contains($0)) }
    }

    /// The scheme of a location written as a URL (`postgresql` for `postgresql://…`), or `nil`
    /// when it does not start with a scheme and `://`.
    public static func urlScheme(of location: String) -> String? {
        guard let colon = location.firstIndex(of: ":"), location[colon...].hasPrefix("://") else { return nil }
        let scheme = location[..<colon]
        return isScheme(scheme) ? String(scheme) : nil
    }
}

extension StoreBackend {
    public var locationExamples: [String] { [] }

    /// The location as it is: one that holds no secret.
    public func displayLocation(_ location: String) -> String { location }
}
