public import CartCore

extension SQLiteCartRepository {
    /// SQLite's `EXPLAIN QUERY PLAN` for the statement `forEachOrder(matching:)` runs for
    /// `query`, one detail line per plan step, so tests (and people) can see that history
    /// queries use an index instead of scanning every order.
    ///
    /// - Throws: `DatabaseError`.
    public func orderQueryPlan(for query: OrderQuery) throws -> [String] {
        try explain(SQLiteCartStorage.orderQuerySQL(for: query))
    }
}
