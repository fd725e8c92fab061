public import CartCore

extension InMemoryCartRepository: StoreMaintenance {
    /// The in-memory store has no schema: version 0, nothing applied or pending.
    public func status() throws -> StoreStatus {
        StoreStatus(
            kind: InMemoryStoreBackend.kind, location: InMemoryStoreBackend.location, schemaVersion: 0,
            appliedMigrations: [], pendingMigrations: [],
            details: [
                StoreStatus.Detail(
                    key: "persistence", label: "Persistence", value: "none: everything is lost when the process ends")
            ])
    }

    /// Nothing to migrate.
    public func migrate() throws -> [String] { [] }

    /// Nothing can be damaged: the storage refuses every write whose assumptions fail.
    public func check() throws -> [String] { [] }
}

extension InMemoryCartRepository {
    /// Opens `memory:` locations through a `StoreRegistry`.
    public static let backend: any StoreBackend = InMemoryStoreBackend()
}

/// The in-memory store as a `StoreBackend`: the location `memory:` opens a new, empty store.
struct InMemoryStoreBackend: StoreBackend {
    static let kind = "memory"
    static let location = "memory:"

    var kind: String { Self.kind }

    var locationExamples: [String] { [Self.location] }

    func accepts(_ location: String) -> Bool { location == Self.location }

    func open(_ location: String, options: StoreOptions) throws -> any MaintainableRepository {
        try InMemoryCartRepository(settings: options.initialSettings)
    }
}
