import CartCore

/// Counts the notifications committing write units send on a channel, on one connection of
/// its own that listens to it, opened when first asked and opened again after it broke.
///
/// A listening connection must not go back to a pool, and runs nothing but the feed's pings
/// and cheap reads that must not wait for the pool.
final class PostgresChangeFeed: @unchecked Sendable {
    // @unchecked: `connection` and `count` are only touched while `lock` is held.
    private let lock = Lock()
    private let location: PostgresLocation
    private let options: PostgresConnectionOptions
    private let channel: String
    /// The payload of the notifications that count: the store's schema, so that stores in
    /// other schemas of the database do not move this one's count.
    private let payload: String
    private var connection: PostgresConnection?
    private var count: Int64 = 0

    init(location: PostgresLocation, options: PostgresConnectionOptions, channel: String, payload: String) {
        self.location = location
        self.options = options
        self.channel = channel
        self.payload = payload
    }

    private static let ping: PostgresSQL = "SELECT 1"

    /// How many notifications have arrived, plus one for each time the feed started listening
    /// (changes made while nothing listened are not counted otherwise).
    ///
    /// A round trip first, so that every notification of a unit committed before the call
    /// has arrived: the server sends them ahead of the answer.
    ///
    /// - Throws: `PostgresError` when the server cannot be reached; the next call connects again.
    func token() throws -> Int64 {
        try onListeningConnection { try $0.execute(Self.ping) }.count
    }

    /// Runs `body`, which only reads, on the listening connection: a connection of the feed's
    /// own, which no request holds, so that a readiness check does not queue behind a busy
    /// pool. Then counts the notifications that arrived ahead of its answer.
    ///
    /// - Throws: what `body` throws; `PostgresError` when the server cannot be reached. A
    ///   connection that failed is dropped, so the next call opens another.
    func onListeningConnection<Result>(_ body: (PostgresConnection) throws -> Result) throws
        -> (result: Result, count: Int64)
    {
        try lock.withLock {
            let reused = connection != nil
            do {
                return try run(body)
            } catch let error as PostgresError where reused && error.isConnectionFailure {
                // The session was ended while the connection sat idle (a restart, an
                // administrator), and its end had not arrived when it was checked: a read is
                // safe to send again, on a new connection.
                return try run(body)
            }
        }
    }

    private func run<Result>(_ body: (PostgresConnection) throws -> Result) throws -> (result: Result, count: Int64) {
        do {
            let listening = try listeningConnection()
            let result = try body(listening)
            while let notification = try listening.waitForNotification(timeout: .zero) {
                if notification.payload == payload { count &+= 1 }
            }
            return (result, count)
        } catch {
            connection = nil
            throw error
        }
    }

    // An open connection whose session the server ended while it sat idle is found out here
    // when its end has arrived, so that the token is read on a new one.
    private func listeningConnection() throws -> PostgresConnection {
        if let connection, connection.checkStillOpen() { return connection }
        let opened = try PostgresConnection(location: location, options: options)
        try opened.listen(channel)
        count &+= 1
        connection = opened
        return opened
    }
}
