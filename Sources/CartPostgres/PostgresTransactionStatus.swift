/// Where a connection stands with respect to transactions (libpq's `PQtransactionStatus`).
public enum PostgresTransactionStatus: Sendable, Hashable {
    /// No transaction is open.
    case idle
    /// A statement is running.
    case active
    /// A transaction is open and has not failed.
    case inTransaction
    /// A transaction is open and a statement in it failed: until ROLLBACK, the server ignores
    /// every statement (25P02).
    case failed
    /// The connection is broken.
    case unknown
}
