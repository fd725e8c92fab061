/// An error from PostgreSQL, from libpq, or from this layer's checks of what goes in and out.
///
/// Its description is one line and reads like GRDB's:
/// `PostgreSQL error 23514: new row for relation "cart_lines" violates check constraint
/// "quantity_positive" - while executing INSERT INTO …`. Locations in messages are always the
/// redacted display form (`postgresql://user:***@host/db`): no password reaches a message.
public struct PostgresError: Error, CustomStringConvertible, Sendable {
    /// Where the error comes from.
    public enum Kind: Sendable, Hashable {
        /// The server refused or failed a statement (`sqlState` says why).
        case server
        /// No connection could be made, or an open one broke (the server closed it, the
        /// network failed, the server shut down).
        case connection
        /// The location is not a valid libpq connection URI or string.
        case invalidLocation
        /// A value or option given to this layer cannot be used (text holding NUL, a pool of
        /// no connections, a statement where none is allowed).
        case invalidArgument
        /// The server answered something other than the caller expects: a NULL where a value
        /// is needed, a column of another type, an integer out of range, a missing column.
        case unexpectedResult
        /// Every connection of a pool stayed in use until the checkout timeout.
        case poolTimeout
        /// libpq, PostgreSQL's client library, which is opened on first use, cannot be loaded.
        case clientLibrary
        /// The connection was lost after a COMMIT may have reached the server and before the
        /// server answered it: the transaction may or may not be committed.
        case commitOutcomeUnknown
    }

    /// Where the error comes from.
    public let kind: Kind
    /// The five-character SQLSTATE the server reported (`23505`), if any. Errors that libpq
    /// or this layer raise have none; nor does a connection that failed while being opened,
    /// since libpq does not expose the code of an error received during start-up.
    public let sqlState: String?
    /// The severity the server reported (`ERROR`, `FATAL`, `PANIC`), if any.
    public let severity: String?
    /// The primary message: the server's, libpq's (on one line) or this layer's.
    public let message: String
    /// The server's detail, such as `Key (id)=(c1) already exists.`; for a connection that
    /// could not be made or was lost, or a location libpq refused, libpq's cause on one line
    /// (`Connection refused`, `invalid URI query parameter: "bogus"`).
    public let detail: String?
    /// The server's hint.
    public let hint: String?
    /// The constraint that refused a write, when the server names one.
    public let constraint: String?
    /// The SQL that was running, if any.
    public let sql: String?

    /// Creates an error from its parts.
    public init(
        kind: Kind, message: String, sqlState: String? = nil, severity: String? = nil, detail: String? = nil,
        hint: String? = nil, constraint: String? = nil, sql: String? = nil
    ) {
        self.kind = kind
        self.message = message
        self.sqlState = sqlState
        self.severity = severity
        self.detail = detail
        self.hint = hint
        self.constraint = constraint
        self.sql = sql
    }

    public var description: String {
        var text = "PostgreSQL error"
        if let sqlState { text += " \(sqlState)" }
        text += ": \(message)"
        if let sql { text += " - while executing \(sql.split(whereSeparator: \.isNewline).joined(separator: " "))" }
        return text
    }

    /// The two-character class of `sqlState` (`23` for integrity constraint violations).
    public var sqlStateClass: Substring? { sqlState.map { $0.prefix(2) } }

    /// A serializable transaction could not be ordered among concurrent ones (40001); the whole
    /// transaction may succeed when run again.
    public var isSerializationFailure: Bool { sqlState == "40001" }
    /// The transaction was chosen to break a deadlock (40P01); it may succeed when run again.
    public var isDeadlock: Bool { sqlState == "40P01" }
    /// The transaction failed only because of concurrent ones and is worth running again
    /// (serialization failure or deadlock).
    public var isTransactionConflict: Bool { isSerializationFailure || isDeadlock }

    /// The connection is gone or could not be made: libpq lost or never had it, the server
    /// reported a connection exception (class 08, except 08P01, a protocol violation on a
    /// connection that stays usable), or it ended the session because it is shutting down,
    /// crashed or is not yet accepting connections (57P01, 57P02, 57P03).
    public var isConnectionFailure: Bool {
        if kind == .connection { return true }
        guard let sqlState else { return false }
        if sqlState.hasPrefix("08") { return sqlState != "08P01" }
        return ["57P01", "57P02", "57P03"].contains(sqlState)
    }

    /// Whether this failure of a request that ends with COMMIT leaves the transaction's fate
    /// unknown: the connection went without the server saying that a statement before the
    /// COMMIT failed (which would have ended the request there). A session the server ended
    /// while answering the COMMIT may have ended after the commit.
    var leavesCommitUndecided: Bool {
        isConnectionFailure && (sqlState == nil || sql == "COMMIT")
    }

    /// The error for a transaction whose COMMIT `error` left undecided.
    static func commitOutcomeUnknown(after error: PostgresError) -> PostgresError {
        PostgresError(
            kind: .commitOutcomeUnknown,
            message: "the transaction may or may not be committed: \(error.message)",
            sqlState: error.sqlState, severity: error.severity, detail: error.detail, sql: "COMMIT")
    }

    /// A write would have duplicated a unique key (23505).
    public var isUniqueViolation: Bool { sqlState == "23505" }
    /// A CHECK constraint refused a write (23514); `constraint` names it.
    public var isCheckViolation: Bool { sqlState == "23514" }
    /// A foreign key refused a write (23503).
    public var isForeignKeyViolation: Bool { sqlState == "23503" }
    /// A NOT NULL column was given NULL (23502).
    public var isNotNullViolation: Bool { sqlState == "23502" }
    /// A table the statement names does not exist (42P01): no schema yet, or another
    /// database.
    public var isUndefinedTable: Bool { sqlState == "42P01" }
    /// The database named in the location does not exist (3D000).
    public var isUndefinedDatabase: Bool {
        sqlState == "3D000" || (kind == .connection && message.contains("database \"") && message.contains("\" does not exist"))
    }
    /// The server refused the credentials: a wrong password (28P01), an unknown role or no
    /// matching pg_hba.conf line (28000). Recognised from the server's English message when
    /// the connection fails while being opened.
    public var isAuthenticationFailure: Bool {
        if sqlState == "28P01" || sqlState == "28000" { return true }
        guard kind == .connection else { return false }
        return message.contains("password authentication failed") || message.contains("no pg_hba.conf entry")
            || (message.contains("role \"") && message.contains("\" does not exist"))
            || message.contains("no password supplied")
    }
    /// The server asks for a password and the location, `PGPASSWORD` and the password file
    /// gave none (libpq's message; counted among the refused credentials).
    var isMissingPassword: Bool { kind == .connection && message.contains("no password supplied") }
    /// Something answered at the address, but not as a PostgreSQL server answers (an HTTP
    /// server, say). Recognised from libpq's English messages.
    var isNotPostgres: Bool {
        guard kind == .connection else { return false }
        return message.contains("invalid response to SSL negotiation")
            || message.contains("expected authentication request from server")
            || message.contains("received invalid response to GSSAPI negotiation")
    }
    /// The server was reached but cannot give the session the location asks for: TLS it does
    /// not offer or a certificate that fails the check `sslmode` asks for, another kind of
    /// server than `target_session_attrs` names, or a setting in `options` it does not know or
    /// whose value it refuses. Trying again does not help. Recognised from libpq's and the
    /// server's English messages.
    public var isUnmetConnectionSetting: Bool {
        guard kind == .connection else { return false }
        let text = message + " " + (detail ?? "")
        return Self.unmetSettingMessages.contains { text.contains($0) }
    }

    private static let unmetSettingMessages = [
        "server does not support SSL, but SSL was required", "certificate verify failed", "root certificate file",
        "does not match host name", "SSL certificate", "server is not in hot standby mode", "server is in hot standby mode",
        "session is read-only", "session is not read-only", "GSSAPI encryption required", "channel binding required",
        "unrecognized configuration parameter", "invalid value for parameter",
    ]

    /// libpq refused a connection option of the location before trying to connect: a port
    /// that is not a number, an unknown `sslmode`, a `service` no service file defines.
    /// Recognised from libpq's English message.
    public var isInvalidConnectionOption: Bool {
        guard kind == .connection else { return false }
        return message.contains(": invalid integer value \"") || message.contains(": invalid port number: \"")
            || (message.contains(": invalid ") && message.contains(" value: \""))
            || (message.contains("definition of service \"") && message.contains("\" not found"))
    }
    /// A statement was cancelled: by `statement_timeout`, or by a cancel request (57014).
    public var isQueryCanceled: Bool { sqlState == "57014" }
    /// A lock was not granted within `lock_timeout`, or at once with `NOWAIT` (55P03).
    public var isLockNotAvailable: Bool { sqlState == "55P03" }
    /// A write was attempted in a read-only transaction or on a standby (25006).
    public var isReadOnlyTransaction: Bool { sqlState == "25006" }
    /// The transaction had already failed, and the statement was ignored (25P02).
    public var isInFailedTransaction: Bool { sqlState == "25P02" }
    /// The server's disk is full (53100).
    public var isDiskFull: Bool { sqlState == "53100" }
    /// The server ran out of memory (53200).
    public var isOutOfMemory: Bool { sqlState == "53200" }
    /// The server has no connection slot left (53300). Recognised from the server's English
    /// message when the connection fails while being opened.
    public var isTooManyConnections: Bool {
        sqlState == "53300"
            || (kind == .connection
                && (message.contains("too many clients already") || message.contains("remaining connection slots are reserved")))
    }
    /// The server is short of a resource: disk, memory, connections (class 53).
    public var isInsufficientResources: Bool { sqlStateClass == "53" || isTooManyConnections }
    /// Every connection of a pool stayed in use until the checkout timeout.
    public var isPoolTimeout: Bool { kind == .poolTimeout }
}
