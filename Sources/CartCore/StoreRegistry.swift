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
/// looks like a URL (`scheme://…`) but that no backend accepts is refused rather than taken as
/// a file name.
public struct StoreRegistry: Sendable {
    /// The backends asked, in order.
    public let backends: [any StoreBackend]

    /// Creates a registry of these backends.
    public init(_ backends: [any StoreBackend]) {
        self.backends = backends
    }

    /// The backend that handles `location`.
    ///
    /// - Throws: `StoreLocationError.unknownScheme` when no backend accepts it.
    public func backend(for location: String) throws(StoreLocationError) -> any StoreBackend {
        if let backend = backends.first(where: { $0.accepts(location) }) { return backend }
        let scheme = Self.urlScheme(of: location) ?? location
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

    /// The scheme of a location written as a URL (`postgresql` for `postgresql://…`), or `nil`
    /// when it does not start with a scheme and `://`.
    public static func urlScheme(of location: String) -> String? {
        guard let colon = location.firstIndex(of: ":"), location[colon...].hasPrefix("://") else { return nil }
        let scheme = location[..<colon].unicodeScalars
        guard let first = scheme.first, first.isASCII, first.properties.isAlphabetic,
            scheme.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || "+-.".unicodeScalars.contains($0)) })
        else { return nil }
        return String(scheme)
    }
}

extension StoreBackend {
    public var locationExamples: [String] { [] }

    /// The location as it is: one that holds no secret.
    public func displayLocation(_ location: String) -> String { location }
}
