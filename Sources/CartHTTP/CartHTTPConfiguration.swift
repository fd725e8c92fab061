import HTTPServer

/// How a ``CartHTTPServer`` listens, whom it lets in, and its limits. The defaults serve
/// loopback only, with every limit on.
public struct CartHTTPConfiguration: Sendable {
    /// The address to listen on: `127.0.0.1`, `::1`, `localhost`, `0.0.0.0`, or another
    /// address or name. Anything but a loopback address or `localhost` needs ``adminToken``.
    public var host: String
    /// The port; 0 lets the system pick a free one (``CartHTTPServer/port`` tells which).
    public var port: UInt16
    /// The token admin routes need as `Authorization: Bearer TOKEN`, at least 16 printable
    /// ASCII characters. Without one the server listens on loopback only, and every route is
    /// open to the clients that can reach it there.
    public var adminToken: String?
    /// The key that signs minted cart IDs; every server of one store must share it (see
    /// ``CartIDKey/init(storeSecret:)``). The default lives as long as the process.
    public var cartIDKey: CartIDKey
    /// The store's kind for `GET /v1/health`: `sqlite`, `memory`, `postgresql`.
    public var storeKind: String
    /// Threads running requests; each runs one request at a time against the store.
    public var threads: Int
    /// The largest request body; a larger one gets 413.
    public var maxBodyBytes: Int
    /// The most connections open at once, event streams included (see ``maxEventStreams``).
    public var maxConnections: Int
    /// The most connections open at once from one address; nil for 0 (none) on loopback and
    /// 64 beyond it.
    public var maxConnectionsPerIP: Int?
    /// How long a connection may stay idle mid-request or between requests before it closes.
    public var connectionTimeout: Duration
    /// The memory per connection, which the request line and headers share with libmicrohttpd's
    /// own records, and so bounds the largest request head: 431 or 414 beyond it
    /// (HTTP_SERVER.md gives the head measured at the default).
    public var connectionMemoryLimit: Int
    /// How often the one watcher behind every event stream polls the store's change token.
    public var eventPollInterval: Duration
    /// How often every cart event stream gets a `heartbeat` event: the server finds clients
    /// that went away, and a client finds a stream that went silent.
    public var streamHeartbeatInterval: Duration
    /// Receives one line per request once answered: `127.0.0.1 GET /v1/health 200 0.412ms`.
    public var accessLog: (@Sendable (String) -> Void)?
    /// Receives the server's and libmicrohttpd's error messages and the details of store
    /// failures, which clients are not shown, one line each.
    public var errorLog: (@Sendable (String) -> Void)?
    /// Receives news that clears an earlier error line (the store readable again for the event
    /// streams), one line each; nil sends it to ``errorLog``, so that a log of errors also
    /// shows their end.
    public var noticeLog: (@Sendable (String) -> Void)?

    /// Makes a configuration; every limit has a safe default.
    public init(
        host: String = "127.0.0.1", port: UInt16 = 8080, adminToken: String? = nil,
        cartIDKey: CartIDKey = .random(), storeKind: String = "unknown", threads: Int = 4,
        maxBodyBytes: Int = 1 << 20, maxConnections: Int = 1000, maxConnectionsPerIP: Int? = nil,
        connectionTimeout: Duration = .seconds(30), connectionMemoryLimit: Int = 32 * 1024,
        eventPollInterval: Duration = .milliseconds(200), streamHeartbeatInterval: Duration = .seconds(15),
        accessLog: (@Sendable (String) -> Void)? = nil, errorLog: (@Sendable (String) -> Void)? = nil,
        noticeLog: (@Sendable (String) -> Void)? = nil
    ) {
        self.host = host
        self.port = port
        self.adminToken = adminToken
        self.cartIDKey = cartIDKey
        self.storeKind = storeKind
        self.threads = threads
        self.maxBodyBytes = maxBodyBytes
        self.maxConnections = maxConnections
        self.maxConnectionsPerIP = maxConnectionsPerIP
        self.connectionTimeout = connectionTimeout
        self.connectionMemoryLimit = connectionMemoryLimit
        self.eventPollInterval = eventPollInterval
        self.streamHeartbeatInterval = streamHeartbeatInterval
        self.accessLog = accessLog
        self.errorLog = errorLog
        self.noticeLog = noticeLog
    }

    /// Refuses what would keep a server from starting that needs no store and no socket to
    /// find: a host beyond loopback without an admin token, an unusable token, an event poll
    /// interval outside 10 ms to 60 s. A host beyond loopback that does not resolve is refused
    /// as such: a token would not make it listenable.
    ///
    /// - Throws: ``CartHTTPServerError/adminTokenRequired(host:)``,
    ///   ``CartHTTPServerError/invalidAdminToken(_:)`` or ``CartHTTPServerError/server(_:)``.
    public func validate() throws(CartHTTPServerError) {
        if adminToken == nil && !listensOnLoopbackOnly {
            do throws(HTTPServerError) {
                try HTTPServer.checkHost(host)
            } catch {
                throw .server(error)
            }
            throw .adminTokenRequired(host: host)
        }
        if let adminToken { _ = try AdminToken(adminToken) }
        try validateEventPollInterval()
    }

    /// Refuses an event poll interval outside 10 ms to 60 s.
    ///
    /// - Throws: ``CartHTTPServerError/server(_:)``.
    func validateEventPollInterval() throws(CartHTTPServerError) {
        guard eventPollInterval >= .milliseconds(10), eventPollInterval <= .seconds(60) else {
            throw .server(.invalidConfiguration("eventPollInterval must be between 10 ms and 60 s"))
        }
    }

    /// The most cart event streams open at once: three quarters of ``maxConnections``, rounded
    /// down, but at least one; 750 of the default 1,000. A stream holds its connection for as
    /// long as its client stays, so without a cap streams alone could take every connection
    /// and leave even a health check waiting. A quarter of the connections stays for ordinary
    /// requests, which free theirs within a request's time; a fraction rather than a fixed
    /// number, so that the room left grows with the limit and a small limit still leaves some.
    /// A server of one connection still serves one stream, which then holds that connection
    /// while it lasts: a cap of none would turn the route off without a word.
    public var maxEventStreams: Int {
        max(1, maxConnections * 3 / 4)
    }

    /// Whether ``host`` is a loopback address (`127.0.0.0/8`, `::1`) or `localhost`; names
    /// are not resolved, so any other name counts as reaching beyond.
    public var listensOnLoopbackOnly: Bool {
        Self.isLoopback(host)
    }

    /// Whether `host` (an address, a name, `[::1]`) is loopback as ``listensOnLoopbackOnly``
    /// counts it.
    static func isLoopback(_ host: String) -> Bool {
        // Nearly every request names one of these.
        if host == "127.0.0.1" || host == "localhost" || host == "[::1]" { return true }
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        // `localhost.` is the same name, written fully qualified.
        if name == "localhost" || name == "localhost." || name == "::1" || name == "0:0:0:0:0:0:0:1" { return true }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127"
            && octets.allSatisfy { $0.count <= 3 && UInt8($0) != nil && ($0 == "0" || !$0.hasPrefix("0")) }
    }
}
