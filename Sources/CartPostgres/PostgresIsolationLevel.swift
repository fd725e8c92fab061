/// How a transaction sees the writes of concurrent ones (`BEGIN ISOLATION LEVEL …`).
public enum PostgresIsolationLevel: Sendable, Hashable {
    /// Each statement sees what was committed before it started; rows locked with
    /// `SELECT … FOR UPDATE` are read again once a concurrent writer commits. PostgreSQL's
    /// default, and never fails with a serialization failure.
    case readCommitted
    /// Every statement sees what was committed before the transaction's first statement; a
    /// write to a row a concurrent transaction changed fails with a serialization failure
    /// (40001).
    case repeatableRead
    /// As if transactions ran one at a time; any that cannot be ordered fail with a
    /// serialization failure (40001).
    case serializable

    /// The `BEGIN` statement for this level: one of six fixed texts, which each connection
    /// prepares once.
    func begin(readOnly: Bool) -> String {
        switch (self, readOnly) {
        case (.readCommitted, false): "BEGIN ISOLATION LEVEL READ COMMITTED"
        case (.readCommitted, true): "BEGIN ISOLATION LEVEL READ COMMITTED READ ONLY"
        case (.repeatableRead, false): "BEGIN ISOLATION LEVEL REPEATABLE READ"
        case (.repeatableRead, true): "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
        case (.serializable, false): "BEGIN ISOLATION LEVEL SERIALIZABLE"
        case (.serializable, true): "BEGIN ISOLATION LEVEL SERIALIZABLE READ ONLY"
        }
    }
}
