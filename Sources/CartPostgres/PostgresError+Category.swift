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
        case .clientLibrary: return .storageFailure
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

    /// What happened, in words without the server's detail or the location, for the failures
    /// whose category alone does not say it; `nil` for the others.
    public var reason: String? {
        if kind == .clientLibrary { return "PostgreSQL's client library (libpq) cannot be loaded; install it (Debian: libpq5)" }
        if isInvalidConnectionOption { return "the location has an option libpq refuses" }
        if isAuthenticationFailure { return "the server refused the credentials" }
        if isUndefinedDatabase { return "the database does not exist" }
        if isPoolTimeout { return "every connection of the pool stayed in use" }
        if isTooManyConnections { return "the server has no connection slot left" }
        if isLockNotAvailable { return "another client held a lock longer than the busy timeout" }
        if isQueryCanceled { return "a statement ran longer than its timeout" }
        if isTransactionConflict { return "concurrent changes kept conflicting" }
        if isConnectionFailure { return "the server cannot be reached, or closed the connection" }
        if isReadOnlyTransaction { return "the server accepts no writes (a standby, or read-only)" }
        if sqlState == "42501" { return "the role may not write to the store" }
        if isDiskFull { return "the server's disk is full" }
        return nil
    }
}
