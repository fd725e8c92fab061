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
    func begin(readOnly: Bool) -> PostgresSQL {
        switch (self, readOnly) {
        case (.readCommitted, false): Self.beginReadCommitted
        case (.readCommitted, true): Self.beginReadCommittedReadOnly
        case (.repeatableRead, false): Self.beginRepeatableRead
        case (.repeatableRead, true): Self.beginRepeatableReadReadOnly
        case (.serializable, false): Self.beginSerializable
        case (.serializable, true): Self.beginSerializableReadOnly
        }
    }

    private static let beginReadCommitted: PostgresSQL = "BEGIN ISOLATION LEVEL READ COMMITTED"
    private static let beginReadCommittedReadOnly: PostgresSQL = "BEGIN ISOLATION LEVEL READ COMMITTED READ ONLY"
    private static let beginRepeatableRead: PostgresSQL = "BEGIN ISOLATION LEVEL REPEATABLE READ"
    private static let beginRepeatableReadReadOnly: PostgresSQL = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
    private static let beginSerializable: PostgresSQL = "BEGIN ISOLATION LEVEL SERIALIZABLE"
    private static let beginSerializableReadOnly: PostgresSQL = "BEGIN ISOLATION LEVEL SERIALIZABLE READ ONLY"
}
