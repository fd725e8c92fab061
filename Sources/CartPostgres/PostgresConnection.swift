import CLibpq
import CLibpqLoader

/// One libpq connection with its prepared-statement cache. Not thread-safe: one thread uses
/// it at a time (`PostgresConnectionPool` hands each connection to one caller).
///
/// Every statement is prepared once per connection (as `cart_1`, `cart_2`, …, looked up by its
/// SQL text) and then only executed: keep SQL texts a fixed set (values go in parameters), not
/// text built per call.
///
/// ```swift
/// let connection = try PostgresConnection(location: PostgresLocation("postgresql://cart@db/shop"))
/// let rows = try connection.execute("SELECT quantity FROM cart_lines WHERE cart_id = $1", ["c1"])
/// ```
public final class PostgresConnection {
    let handle: OpaquePointer
    /// Where the connection goes; its description has the password masked.
    public let location: PostgresLocation
    /// The name of the prepared statement of each SQL text this connection has prepared.
    var statementNames: [PostgresSQL: String] = [:]
    var nextStatementNumber = 1
    /// Statements queued by `queue(_:_:)`, sent before the next statement.
    var queued: [PostgresStatement] = []
    /// The channels `listen(_:)` subscribed to.
    var channels: Set<String> = []
    /// Whether libpq's state went out of step with this layer's (an unexpected result, a
    /// failed send): the connection must not be used again.
    var isBroken = false
    /// How many requests were begun: counted before libpq is handed a request's first
    /// statement, so that a failure can tell whether any of it may have reached the server.
    var requestsBegun = 0

    /// How long a request waits for its answer before the connection is given up: the
    /// options' `responseTimeout`, raised to 5 seconds past the session's statement timeout
    /// when the location (or `PGOPTIONS`) sets a longer one, and `nil` when it sets none (0),
    /// so that the server, not this wait, ends a statement the location lets run long.
    public private(set) var responseTimeout: Duration?

    /// Called with each NOTICE or WARNING the server sends. `nil` drops them; libpq's own
    /// default would print them on stderr.
    public var noticeHandler: ((PostgresNotice) -> Void)?

    /// Opens a connection.
    ///
    /// - Throws: `PostgresError` of kind `.connection` when the server cannot be reached or
    ///   refuses the connection (wrong password, unknown database, too many clients); its
    ///   message shows the location with the password masked.
    public init(location: PostgresLocation, options: PostgresConnectionOptions = PostgresConnectionOptions()) throws {
        try PostgresError.requireClientLibrary()
        let handle = try Self.open(options.connectionParameters(for: location), location: location)
        self.handle = handle
        self.location = location
        responseTimeout = options.responseTimeout
        cart_PQsetNoticeReceiver(handle, receiveNotice, Unmanaged.passUnretained(self).toOpaque())
        if responseTimeout != nil, options.givenServerOptions(for: location) != nil {
            try followStatementTimeout()
        }
    }

    /// Raises `responseTimeout` to what the session's statement timeout needs; see there.
    /// The location's server options come after the options' own, so they win, and only
    /// the server knows what they came to.
    private func followStatementTimeout() throws {
        let setting = try execute("SELECT setting::bigint FROM pg_settings WHERE name = 'statement_timeout'")
        guard setting.count == 1, let current = responseTimeout else { return }
        let milliseconds = try setting[0].int64(0)
        responseTimeout = milliseconds == 0 ? nil : max(current, .milliseconds(milliseconds) + .seconds(5))
    }

    /// Checks `location` and opens a connection to it.
    ///
    /// - Throws: `PostgresError` of kind `.invalidLocation` for a malformed location, or as
    ///   `init(location:options:)` does.
    public convenience init(_ location: String, options: PostgresConnectionOptions = PostgresConnectionOptions()) throws {
        try self.init(location: PostgresLocation(location), options: options)
    }

    deinit { cart_PQfinish(handle) }

    /// Whether the connection can run statements: libpq has not lost it and this layer has
    /// not given up on it. A connection the server closed while it sat idle shows as open
    /// until it is used, or until `checkStillOpen()` looks.
    public var isOpen: Bool { !isBroken && cart_PQstatus(handle) == CONNECTION_OK }

    /// Where the connection stands with respect to transactions.
    public var transactionStatus: PostgresTransactionStatus {
        switch cart_PQtransactionStatus(handle) {
        case PQTRANS_IDLE: .idle
        case PQTRANS_ACTIVE: .active
        case PQTRANS_INTRANS: .inTransaction
        case PQTRANS_INERROR: .failed
        default: .unknown
        }
    }

    /// The process ID of the server backend serving this connection (for
    /// `pg_terminate_backend`, `pg_stat_activity`).
    public var backendProcessID: Int32 { cart_PQbackendPID(handle) }

    /// The server's version as a number: 150018 for 15.18.
    public var serverVersion: Int { Int(cart_PQserverVersion(handle)) }

    /// Closes the connection and opens it again with the same parameters. The new session
    /// has no prepared statements, listens to no channel and has no queued statements.
    ///
    /// - Throws: `PostgresError` of kind `.connection` when it cannot be opened again.
    public func reset() throws {
        cart_PQreset(handle)
        statementNames.removeAll()
        queued.removeAll()
        channels.removeAll()
        isBroken = false
        guard cart_PQstatus(handle) == CONNECTION_OK else {
            throw Self.connectionFailure(location: location, clientMessage: String(cString: cart_PQerrorMessage(handle)))
        }
    }

    /// The error for a connection to `location` that could not be made, with libpq's reason
    /// (`text`, as `PQerrorMessage` gives it) as the message and its cause as the detail.
    static func connectionFailure(location: PostgresLocation, clientMessage text: String) -> PostgresError {
        PostgresError(
            kind: .connection, message: PostgresError.couldNotConnect + "\(location): \(location.scrub(text))",
            detail: PostgresError.cause(ofClientMessage: text).map(location.scrub))
    }

    /// Runs one statement, after any queued ones, in one round trip, and returns its rows.
    ///
    /// - Throws: `PostgresError`: the server's error for this statement or a queued one, a
    ///   lost connection, or a parameter that cannot be sent (text holding NUL; then nothing
    ///   is sent).
    @discardableResult
    public func execute(_ sql: PostgresSQL, _ parameters: [PostgresValue] = []) throws -> PostgresResult {
        if queued.isEmpty, let name = statementNames[sql] { return try sendPrepared(sql, parameters, name: name) }
        let results = try send([PostgresStatement(sql, parameters)])
        guard let last = results.last else {
            throw PostgresError(kind: .unexpectedResult, message: "the server returned no result", sql: sql.text)
        }
        return last
    }

    /// Runs SQL text that may hold several statements separated by semicolons and binds no
    /// values (schema scripts), with the simple query protocol: nothing is prepared. Without
    /// an open transaction the statements run as one.
    ///
    /// - Throws: `PostgresError` for the first statement that fails, or a lost connection.
    public func executeScript(_ sql: String) throws {
        try flush()
        guard !sql.utf8.contains(0) else {
            throw PostgresError(kind: .invalidArgument, message: "the SQL contains a NUL character", sql: sql)
        }
        try checkUsable(sql: sql)
        guard let result = cart_PQexec(handle, sql) else { throw lostConnection(sql: sql) }
        defer { cart_PQclear(result) }
        switch cart_PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return
        case PGRES_FATAL_ERROR:
            throw error(from: result, sql: sql)
        default:
            isBroken = true
            throw PostgresError(
                kind: .unexpectedResult, message: "unexpected result \(String(cString: cart_PQresStatus(cart_PQresultStatus(result))))",
                sql: sql)
        }
    }

    /// Fails unless the connection can take a statement.
    func checkUsable(sql: String?) throws {
        guard isOpen else { throw lostConnection(sql: sql) }
    }

    /// The error for a connection that is gone, with libpq's reason.
    func lostConnection(sql: String?) -> PostgresError {
        let text = String(cString: cart_PQerrorMessage(handle))
        let reason = location.scrub(text)
        return PostgresError(
            kind: .connection,
            message: "the connection to \(location) is lost" + (reason.isEmpty ? "" : ": \(reason)"),
            detail: PostgresError.cause(ofClientMessage: text).map(location.scrub), sql: sql)
    }

    /// The error a failed result reports, with its SQLSTATE and fields; of kind `.connection`
    /// when the connection is gone with it.
    func error(from result: OpaquePointer, sql: String) -> PostgresError {
        let lost = cart_PQstatus(handle) != CONNECTION_OK
        let sqlState = ErrorField.sqlState.value(in: result)
        // The server no longer holds a statement this connection prepared (`DEALLOCATE`,
        // `DISCARD ALL`, a pooler that moved the session): the names it keeps are wrong, so
        // it is not used again, and its pool opens another.
        if sqlState == "26000" { isBroken = true }
        let message =
            ErrorField.primaryMessage.value(in: result) ?? location.scrub(String(cString: cart_PQresultErrorMessage(result)))
        return PostgresError(
            kind: lost ? .connection : .server,
            message: lost ? "the connection to \(location) is lost: \(message)" : message,
            sqlState: sqlState, severity: ErrorField.severity.value(in: result),
            detail: ErrorField.detail.value(in: result), hint: ErrorField.hint.value(in: result),
            constraint: ErrorField.constraint.value(in: result), sql: sql)
    }
}

/// libpq's notice receiver: hands the notice to the connection's handler instead of
/// printing it.
private func receiveNotice(_ context: UnsafeMutableRawPointer?, _ result: OpaquePointer?) {
    guard let context, let result else { return }
    let connection = Unmanaged<PostgresConnection>.fromOpaque(context).takeUnretainedValue()
    connection.noticeHandler?(PostgresNotice(result: result))
}
