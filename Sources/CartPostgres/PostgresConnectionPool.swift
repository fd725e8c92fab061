import Dispatch
import Synchronization

/// A fixed maximum of connections to one location, shared by many threads; each caller gets a
/// connection of its own for the duration of `withConnection`.
///
/// Connections open when first needed. A caller waits, up to the checkout timeout, while all
/// are in use. A connection that broke (its server closed it, the network failed, a
/// connection error came out of the caller's work) is closed rather than handed out again; the
/// next caller opens a fresh one, so a server restart costs the units it interrupted and no
/// more.
///
/// ```swift
/// let pool = try PostgresConnectionPool(location: PostgresLocation(url), maximumConnections: 8)
/// let count = try pool.withConnection { connection in
///     try connection.execute("SELECT count(*) FROM carts")[0].int64(0)
/// }
/// ```
public final class PostgresConnectionPool: Sendable {
    /// Where the connections go.
    public let location: PostgresLocation
    /// How each connection is opened.
    public let options: PostgresConnectionOptions
    /// The most connections open at once.
    public let maximumConnections: Int
    /// How long `withConnection` waits for a free connection.
    public let checkoutTimeout: Duration
    /// One permit per connection that may be in use.
    private let permits: DispatchSemaphore
    private let idle = Mutex<[IdleConnection]>([])

    /// Creates a pool; no connection opens until one is needed.
    ///
    /// - Throws: `PostgresError` of kind `.invalidArgument` when `maximumConnections` is not
    ///   positive.
    public init(
        location: PostgresLocation, options: PostgresConnectionOptions = PostgresConnectionOptions(),
        maximumConnections: Int = 4, checkoutTimeout: Duration = .seconds(10)
    ) throws {
        guard maximumConnections > 0 else {
            throw PostgresError(
                kind: .invalidArgument, message: "a connection pool needs at least 1 connection, not \(maximumConnections)")
        }
        self.location = location
        self.options = options
        self.maximumConnections = maximumConnections
        self.checkoutTimeout = checkoutTimeout
        permits = DispatchSemaphore(value: maximumConnections)
    }

    /// Runs `body` with a connection of its own, then takes the connection back: kept for the
    /// next caller if it is still sound, closed if it broke. A transaction `body` left open is
    /// rolled back; statements it left queued are dropped.
    ///
    /// - Throws: what `body` throws, or `PostgresError`: `.poolTimeout` when no connection
    ///   became free within the checkout timeout, `.connection` when a new one cannot be
    ///   opened.
    public func withConnection<Result>(_ body: (PostgresConnection) throws -> Result) throws -> Result {
        let milliseconds = Int(clamping: checkoutTimeout.roundedUpMilliseconds)
        guard permits.wait(timeout: .now() + .milliseconds(milliseconds)) == .success else {
            throw PostgresError(
                kind: .poolTimeout,
                message: "no connection to \(location) became free within \(checkoutTimeout): all \(maximumConnections) are in use")
        }
        defer { permits.signal() }
        let connection = try checkOut()
        do {
            let result = try body(connection)
            checkIn(connection, after: nil)
            return result
        } catch {
            checkIn(connection, after: error)
            throw error
        }
    }

    /// How many connections are open and not in use.
    public var idleConnections: Int { idle.withLock { $0.count } }

    /// Closes the connections not in use; those in use close when their callers are done
    /// with them, if they are not taken again.
    public func closeIdleConnections() {
        idle.withLock { $0.removeAll() }
    }

    /// An idle connection that is still open, or a new one. Idle connections the server
    /// closed meanwhile are found out without a round trip, and closed.
    private func checkOut() throws -> PostgresConnection {
        while let resting = idle.withLock({ $0.popLast() }) {
            if resting.connection.checkStillOpen() { return resting.connection }
        }
        return try PostgresConnection(location: location, options: options)
    }

    /// Keeps `connection` for the next caller if it is sound, with no transaction open,
    /// nothing queued and no channel listened to; otherwise lets it close.
    private func checkIn(_ connection: PostgresConnection, after error: (any Error)?) {
        if let error = error as? PostgresError, error.isConnectionFailure { return }
        connection.rollBack()
        guard connection.isOpen, connection.transactionStatus == .idle, !connection.isListening else { return }
        idle.withLock { $0.append(IdleConnection(connection: connection)) }
    }
}
