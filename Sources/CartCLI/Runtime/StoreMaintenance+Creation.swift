import CartCore

extension StoreMaintenance {
    /// Applies the pending migrations, as `migrate()` does, and says whether they created the
    /// store. Of several processes that find a store without a schema at once, exactly one
    /// applies its first migration (every pending migration goes in one transaction, which
    /// reads again what is applied); the others find the store made, apply nothing, and are
    /// told it existed.
    ///
    /// - Returns: the names of the migrations applied now, and whether they created the store.
    /// - Throws: the errors of `status()` and `migrate()`.
    func migrateReportingCreation() throws -> (applied: [String], created: Bool) {
        let existed = try status().schemaVersion > 0
        let applied = try migrate()
        return (applied, !existed && !applied.isEmpty)
    }
}
