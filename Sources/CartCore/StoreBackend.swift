/// A kind of store that can be opened by location: what `StoreRegistry` asks to open a
/// `--db` value or a configuration string. Each backend module offers one
/// (`SQLiteCartRepository.backend`, `InMemoryCartRepository.backend`, …).
public protocol StoreBackend: Sendable {
    /// A short name for people and status output: `sqlite`, `memory`, `postgresql`.
    var kind: String { get }

    /// How a location of this kind is written, for messages: `memory:`, `postgresql://…`;
    /// empty for the kind that takes plain paths.
    var locationExamples: [String] { get }

    /// Whether `location` names a store of this kind.
    func accepts(_ location: String) -> Bool

    /// `location` as messages and status show it: with any password it holds masked
    /// (`postgresql://shop:***@db/shop`), so that printing a location never shows a secret.
    func displayLocation(_ location: String) -> String

    /// Opens (or, when `options.createIfMissing` allows, creates) the store at `location`.
    ///
    /// - Throws: `StoreLocationError`, `MigrationError`, or the backend's storage error.
    func open(_ location: String, options: StoreOptions) throws -> any MaintainableRepository
}

/// A repository that can also report on, migrate and check its store.
public typealias MaintainableRepository = CartRepository & StoreMaintenance
