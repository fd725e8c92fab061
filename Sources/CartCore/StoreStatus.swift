/// What `StoreMaintenance.status()` reports about a store.
public struct StoreStatus: Hashable, Sendable {
    /// The backend's kind: `sqlite`, `memory`, `postgresql`.
    public let kind: String
    /// Where the store is, as people may be shown it (passwords masked).
    public let location: String
    /// How many migrations are applied: the schema version.
    public let schemaVersion: Int
    /// The migrations applied, oldest first.
    public let appliedMigrations: [AppliedMigration]
    /// Migrations this build ships that are not applied yet.
    public let pendingMigrations: [String]
    /// Backend facts worth showing, in order, such as the journal mode.
    public let details: [Detail]

    /// One backend fact.
    public struct Detail: Hashable, Sendable {
        /// A name for machines, in lower camel case: `journalMode`, `serverVersion`.
        public let key: String
        /// The name for people: `Journal mode`, `Server version`.
        public let label: String
        /// Its value, as people read it.
        public let value: String
        /// The value as a number, for a fact that is one (a count, a limit), so that machine
        /// output gives a number; `nil` for text.
        public let number: Int?

        /// Creates a fact whose value is text.
        public init(key: String, label: String, value: String) {
            self.key = key
            self.label = label
            self.value = value
            number = nil
        }

        /// Creates a fact whose value is a number.
        public init(key: String, label: String, number: Int) {
            self.key = key
            self.label = label
            value = String(number)
            self.number = number
        }
    }

    /// Creates a status.
    public init(
        kind: String, location: String, schemaVersion: Int, appliedMigrations: [AppliedMigration],
        pendingMigrations: [String], details: [Detail]
    ) {
        self.kind = kind
        self.location = location
        self.schemaVersion = schemaVersion
        self.appliedMigrations = appliedMigrations
        self.pendingMigrations = pendingMigrations
        self.details = details
    }
}
