import CartCore

/// PostgreSQL databases as a `StoreBackend`: a location is a libpq connection URI,
/// `postgresql://…` or `postgres://…`.
struct PostgresStoreBackend: StoreBackend {
    static let kind = "postgresql"

    var kind: String { Self.kind }

    var locationExamples: [String] { ["postgresql://…"] }

    func accepts(_ location: String) -> Bool {
        PostgresLocation.isURI(location)
    }

    func displayLocation(_ location: String) -> String {
        PostgresLocation.redacted(location)
    }

    func open(_ location: String, options: StoreOptions) throws -> any MaintainableRepository {
        try PostgresCartRepository(url: location, options: options)
    }
}
