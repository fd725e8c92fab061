public import CartCore

extension PostgresError: CategorizedError {
    /// What kind of failure the error is, for any front end:
    /// - `invalidInput`: a location libpq cannot parse or whose options it refuses, or a value
    ///   it cannot send.
    /// - `storageFailure`: credentials the server refuses, a database it does not have, a full
    ///   disk or another shortage of the server's, and whatever fits no other category.
    /// - `unavailable`: the server cannot be reached or went away, the pool stayed busy, the
    ///   server has no connection slot left, a lock or a statement waited past its timeout, or
    ///   concurrent units kept conflicting (deadlocks) past the repository's retries. Trying
    ///   again later may work.
    /// - `readOnly`: a standby or a read-only transaction (25006), or a role without the
    ///   privilege to write (42501).
    /// - `damagedStore`: a row breaks a constraint, a value read back is not what the schema
    ///   promises, or a table or column of the schema is missing: another client's doing.
    public var category: ErrorCategory {
        switch kind {
        case .invalidLocation, .invalidArgument: return .invalidInput
        case .unexpectedResult: return .damagedStore
        case .server, .connection, .poolTimeout: break
        }
        if isInvalidConnectionOption { return .invalidInput }
        if isAuthenticationFailure || isUndefinedDatabase { return .storageFailure }
        if isConnectionFailure || isPoolTimeout || isTooManyConnections || isLockNotAvailable || isQueryCanceled
            || isTransactionConflict
        {
            return .unavailable
        }
        if isReadOnlyTransaction || sqlState == "42501" { return .readOnly }
        if isInsufficientResources { return .storageFailure }
        // Integrity constraint violations (class 23), a value out of range (22003), a missing
        // table or column (42P01, 42703).
        if sqlStateClass == "23" || ["22003", "42P01", "42703"].contains(sqlState ?? "") { return .damagedStore }
        return .storageFailure
    }
}
