/// What every backend offers to look after its store: the schema it is at, migrating it, and
/// checking it for damage. The CLI's `db status`, `db migrate` and `db check` run these.
public protocol StoreMaintenance: Sendable {
    /// The store's location (with any password masked), schema version, migrations and
    /// backend details.
    ///
    /// - Throws: `MigrationError` for a store this build must not use, or a storage error.
    func status() throws -> StoreStatus

    /// Applies the pending migrations, all in one transaction.
    ///
    /// - Returns: the names of the migrations applied now; empty when up to date.
    /// - Throws: `MigrationError`, or a storage error.
    @discardableResult
    func migrate() throws -> [String]

    /// Looks for damage: the backend's own integrity checks and rows that break the schema's
    /// promises (a reference to nothing, a value out of range).
    ///
    /// - Returns: one line per problem; empty for a healthy store.
    /// - Throws: a storage error.
    func check() throws -> [String]

    /// Compares the schema alone with what the store's applied migrations make, reading no
    /// rows: one line per table, index or other object of theirs that the store lacks or
    /// holds changed (someone altered it outside this build), as `check()` names it.
    ///
    /// - Returns: one line per difference; empty when the schema is as the migrations made
    ///   it, and where the backend has no schema or cannot compare it here.
    /// - Throws: a storage error.
    func schemaDifferences() throws -> [String]
}

extension StoreMaintenance {
    /// No differences: a backend without a schema of migrations has none to compare.
    public func schemaDifferences() throws -> [String] { [] }
}
