public import CartCore

extension PostgresError: CategorizedError {
    /// What kind of failure the error is, for any front end:
    /// - `invalidInput`: a location libpq cannot parse or whose options it refuses, or a value
    ///   it cannot send.
    /// - `storageFailure`: credentials the server refuses, a database it does not have, a
    ///   server that does not speak PostgreSQL's protocol, a
    ///   session the location's settings ask for that the server cannot give (TLS, a standby), a full
    ///   disk or another shortage of the server's, and whatever fits no other category.
    /// - `unavailable`: the server cannot be reached or went away, the pool stayed busy, the
    ///   server has no connection slot left, a lock or a statement waited past its timeout, or
    ///   concurrent units kept conflicting (deadlocks) past the repository's retries. Trying
    ///   again later may work.
    /// - `readOnly`: a standby or a read-only transaction (25006), or a role without the
    ///   privilege to write (42501 on a statement that writes or locks).
    /// - `storageFailure` as well: a role without the privilege to read (42501 on a plain
    ///   `SELECT`), which no read-only use of the store escapes.
    /// - `damagedStore`: a row breaks a constraint, a value read back is not what the schema
    ///   promises, or a table or column of the schema is missing: another client's doing.
    public var category: ErrorCategory {
        switch kind {
        case .invalidLocation, .invalidArgument: return .invalidInput
        case .unexpectedResult: return .damagedStore
        case .clientLibrary: return .storageFailure
        case .commitOutcomeUnknown: return .outcomeUnknown
        case .server, .connection, .poolTimeout: break
        }
        if isInvalidConnectionOption { return .invalidInput }
        if isAuthenticationFailure || isUndefinedDatabase || isUnmetConnectionSetting || isNotPostgres { return .storageFailure }
        if isConnectionFailure || isPoolTimeout || isTooManyConnections || isLockNotAvailable || isQueryCanceled
            || isTransactionConflict
        {
            return .unavailable
        }
        if isReadOnlyTransaction || (sqlState == "42501" && !isReadDenied) { return .readOnly }
        if isInsufficientResources { return .storageFailure }
        // Integrity constraint violations (class 23), a value out of range (22003), a missing
        // table or column (42P01, 42703).
        if sqlStateClass == "23" || ["22003", "42P01", "42703"].contains(sqlState ?? "") { return .damagedStore }
        return .storageFailure
    }

    /// What happened, in words without the location, for the failures whose category alone
    /// does not say it, with libpq's or the server's cause where it adds something
    /// (`the server cannot be reached (connection refused)`); `nil` for the others.
    public var reason: String? {
        let cause = detail.map(Self.lowercasingFirstWord)
        let because = cause.map { " (\($0))" } ?? ""
        if kind == .clientLibrary { return "PostgreSQL's client library (libpq) cannot be loaded; install it (Debian: libpq5)" }
        if kind == .commitOutcomeUnknown {
            let ended: String
            if sqlState == "57P01" {
                ended = "the server ended the session"
            } else if isServerStopping {
                ended = "the server shut down"
            } else {
                ended = "the connection to the server was lost" + because
            }
            return ended + " while the change was being committed, so it may or may not have been saved"
        }
        if kind == .invalidLocation || isInvalidConnectionOption { return "it is not a valid PostgreSQL location" + because }
        if isMissingPassword {
            return "the server asks for a password and none was given (put it in the location, PGPASSWORD or ~/.pgpass)"
        }
        if isAuthenticationFailure { return "the server refused the credentials" + because }
        if isNotPostgres { return "what answers at that address is not a PostgreSQL server" + because }
        if isUndefinedDatabase { return cause ?? "the database does not exist" }
        if isUnmetConnectionSetting {
            return "the server cannot meet the location's connection settings" + because
        }
        if isPoolTimeout { return "every connection of the pool stayed in use" }
        if isTooManyConnections { return "the server has no connection slot left" }
        if isServerStopping {
            // 57P01 comes both from a shutdown and from an administrator ending one session
            // (pg_terminate_backend); the server's words are the same for both.
            return sqlState == "57P01"
                ? "the server ended the session (it is shutting down, or an administrator ended the session)"
                : "the server is shutting down or restarting"
        }
        if isLockNotAvailable { return "another client held a lock longer than the busy timeout" }
        if isQueryCanceled { return "a statement ran longer than its timeout" }
        if isTransactionConflict { return "concurrent changes kept conflicting" }
        if isConnectionFailure {
            if message.hasPrefix(Self.couldNotConnect) { return "the server cannot be reached" + because }
            return "the connection to the server was lost" + because
        }
        if isReadOnlyTransaction { return "the server accepts no writes (a standby, or read-only)" }
        if isReadDenied {
            return "the role may not read the store (\(Self.lowercasingFirstWord(message))); grant it SELECT on the "
                + "store's tables, or connect as their owner"
        }
        if sqlState == "42501" {
            return "the role may not write to the store; grant it INSERT, UPDATE and DELETE on the store's tables, "
                + "or connect as their owner"
        }
        if isDiskFull { return "the server's disk is full" }
        // The damaged store's kinds, with the server's or the row reader's message, which
        // names the table, column or constraint but no stored value.
        if kind == .unexpectedResult { return "a value read back is not what the schema promises (\(message))" }
        if sqlStateClass == "23" { return "a row breaks a rule of the schema (\(Self.lowercasingFirstWord(message)))" }
        if sqlState == "22003" { return "a value is out of range (\(Self.lowercasingFirstWord(message)))" }
        if sqlState == "42P01" || sqlState == "42703" {
            return "a table or column of the schema is missing (\(Self.lowercasingFirstWord(message)))"
        }
        return nil
    }

    /// The role lacks a privilege a plain read needs: 42501 on a `SELECT` that locks nothing
    /// (a locking read needs the privilege to update).
    var isReadDenied: Bool {
        guard sqlState == "42501", let sql else { return false }
        let text = sql.uppercased()
        return (text.hasPrefix("SELECT") || text.hasPrefix("WITH")) && !text.contains(" FOR ") && !text.contains("INSERT ")
            && !text.contains("UPDATE ") && !text.contains("DELETE ")
    }

    /// How the message of an error from opening a connection begins.
    static let couldNotConnect = "could not connect to "

    /// The server ended the session, or refused a new one, because it is shutting down,
    /// restarting or starting up (57P01 to 57P03, or those messages when connecting).
    var isServerStopping: Bool {
        if ["57P01", "57P02", "57P03"].contains(sqlState ?? "") { return true }
        guard kind == .connection, let detail else { return false }
        return detail.hasPrefix("the database system is ")
    }
}
