/// How a `StoreBackend` opens a store.
public struct StoreOptions: Sendable {
    /// How long a unit waits for a store another connection holds locked, and for a
    /// connection to a server, before failing with an `unavailable` error.
    public var busyTimeout: Duration
    /// The settings of a store created now; an existing store keeps its own.
    public var initialSettings: StoreSettings
    /// Apply pending migrations when opening; `false` opens the store as it is, for
    /// `StoreMaintenance.status()` and an explicit `migrate()`.
    public var migrate: Bool
    /// Create a store that does not exist yet (a new SQLite file, with its directory);
    /// `false` throws `StoreLocationError.noStore` instead.
    public var createIfMissing: Bool
    /// The most connections a backend keeps open to serve many threads at once (SQLite: one
    /// that writes and the rest that read, and with readers one more that checkpoints the
    /// write-ahead log; PostgreSQL: its pool); `nil` for the backend's default, which for
    /// SQLite is one connection.
    public var maximumConnections: Int?

    /// Creates options; the defaults open or create a store and migrate it.
    public init(
        busyTimeout: Duration = .seconds(5), initialSettings: StoreSettings = .defaults, migrate: Bool = true,
        createIfMissing: Bool = true, maximumConnections: Int? = nil
    ) {
        self.busyTimeout = busyTimeout
        self.initialSettings = initialSettings
        self.migrate = migrate
        self.createIfMissing = createIfMissing
        self.maximumConnections = maximumConnections
    }
}

extension StoreOptions {
    /// `maximumConnections`, which a backend takes through this check.
    ///
    /// - Throws: `CartError.invalidSetting` below 1.
    public func checkedMaximumConnections() throws(CartError) -> Int? {
        if let maximumConnections, maximumConnections < 1 {
            throw .invalidSetting(name: "The number of connections", value: maximumConnections, range: 1...Int.max)
        }
        return maximumConnections
    }
}
