/// How an ``HTTPServer`` listens, and the limits that keep clients from exhausting it.
///
/// The defaults are for a service on loopback behind nothing: every limit is on.
public struct HTTPServerConfiguration: Sendable {
    /// The address to listen on: an IPv4 or IPv6 address (`127.0.0.1`, `::1`, `[::1]`,
    /// `0.0.0.0`) or a name such as `localhost`, resolved once at start.
    public var host: String
    /// The port to listen on; 0 lets the system pick a free one (see ``HTTPServer/port``).
    public var port: UInt16
    /// The number of threads in libmicrohttpd's pool. Each connection belongs to one thread,
    /// which runs its handler calls, so a handler that blocks delays that thread's other
    /// connections; at most this many handlers run at once.
    public var threads: Int
    /// The largest request body accepted; a larger one gets 413 without the handler being
    /// called, at once when `Content-Length` announces it, after the upload otherwise.
    public var maxBodyBytes: Int
    /// The most connections open at once, open streams included, split evenly among the
    /// threads. A thread at its share stops accepting; once all are, new connections wait,
    /// unanswered, in the listen backlog until one closes.
    public var maxConnections: Int
    /// The most connections open at once from one IP address; 0 for no such limit (behind a
    /// proxy every client has the proxy's address).
    public var maxConnectionsPerIP: Int
    /// How long a connection may stay idle, no byte received or sent, before it is closed:
    /// a client that stalls mid-request, or an unused keep-alive connection. A suspended
    /// stream does not time out. At least one second; counted in whole seconds.
    public var connectionTimeout: Duration
    /// The memory each connection gets for its request line and headers and its send
    /// buffer; a request whose head does not fit gets 431 (or 414 when the target alone is too
    /// long) from libmicrohttpd. Its replies to malformed requests are small HTML pages.
    public var connectionMemoryLimit: Int
    /// How often streams made with a heartbeat get it written; nil for never.
    public var streamHeartbeatInterval: Duration?
    /// Receives libmicrohttpd's error messages and the server's own (a refused response, a
    /// failing body producer), one line each, on any thread. Nil drops them.
    public var errorLog: (@Sendable (String) -> Void)?
    /// Receives one entry per request once its response is complete (or abandoned), on a
    /// server thread: it must be quick.
    public var accessLog: (@Sendable (HTTPAccessLogEntry) -> Void)?
    /// Makes the responses the server sends on its own: 400 for conflicting framing headers,
    /// 413 for a body over ``maxBodyBytes``, 500 for a refused response. It gets the status
    /// and a one-line message; the default answers in plain text.
    public var errorResponse: @Sendable (_ status: Int, _ message: String) -> HTTPResponse

    /// Makes a configuration; every limit has a safe default.
    public init(
        host: String = "127.0.0.1",
        port: UInt16 = 8080,
        threads: Int = 4,
        maxBodyBytes: Int = 1 << 20,
        maxConnections: Int = 1000,
        maxConnectionsPerIP: Int = 0,
        connectionTimeout: Duration = .seconds(30),
        connectionMemoryLimit: Int = 32 * 1024,
        streamHeartbeatInterval: Duration? = .seconds(15),
        errorLog: (@Sendable (String) -> Void)? = nil,
        accessLog: (@Sendable (HTTPAccessLogEntry) -> Void)? = nil,
        errorResponse: @escaping @Sendable (_ status: Int, _ message: String) -> HTTPResponse = { status, message in
            .text(message + "\n", status: status)
        }
    ) {
        self.host = host
        self.port = port
        self.threads = threads
        self.maxBodyBytes = maxBodyBytes
        self.maxConnections = maxConnections
        self.maxConnectionsPerIP = maxConnectionsPerIP
        self.connectionTimeout = connectionTimeout
        self.connectionMemoryLimit = connectionMemoryLimit
        self.streamHeartbeatInterval = streamHeartbeatInterval
        self.errorLog = errorLog
        self.accessLog = accessLog
        self.errorResponse = errorResponse
    }

    /// The connection timeout in whole seconds, rounded up.
    var connectionTimeoutSeconds: Int {
        let (seconds, attoseconds) = connectionTimeout.components
        return Int(clamping: seconds) + (attoseconds > 0 ? 1 : 0)
    }

    /// Checks every value is in range.
    ///
    /// - Throws: ``HTTPServerError/invalidConfiguration(_:)`` naming the first one that is not.
    func validate() throws(HTTPServerError) {
        func require(_ condition: Bool, _ message: String) throws(HTTPServerError) {
            if !condition { throw .invalidConfiguration(message) }
        }
        try require((1...256).contains(threads), "threads must be between 1 and 256, not \(threads)")
        try require(maxBodyBytes >= 0 && maxBodyBytes <= Int(UInt32.max), "maxBodyBytes out of range: \(maxBodyBytes)")
        try require((1...65_536).contains(maxConnections), "maxConnections must be between 1 and 65536, not \(maxConnections)")
        try require((0...65_536).contains(maxConnectionsPerIP), "maxConnectionsPerIP out of range: \(maxConnectionsPerIP)")
        try require(
            connectionTimeout >= .seconds(1) && connectionTimeout <= .seconds(86_400),
            "connectionTimeout must be between 1 s and 1 day")
        try require(
            (4096...(16 << 20)).contains(connectionMemoryLimit),
            "connectionMemoryLimit must be between 4 KiB and 16 MiB, not \(connectionMemoryLimit)")
        if let interval = streamHeartbeatInterval {
            try require(interval >= .milliseconds(10), "streamHeartbeatInterval must be at least 10 ms")
        }
    }
}
