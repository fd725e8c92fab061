/// One statement and the values of its parameters: an element of a pipeline.
public struct PostgresStatement: Sendable, Hashable {
    /// The SQL, with `$1`, `$2`, … where the parameters go.
    public var sql: PostgresSQL
    /// The values of `$1`, `$2`, …, in order.
    public var parameters: [PostgresValue]

    /// Creates a statement.
    public init(_ sql: PostgresSQL, _ parameters: [PostgresValue] = []) {
        self.sql = sql
        self.parameters = parameters
    }
}
