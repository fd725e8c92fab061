public import CartCore
import HTTPServer

/// The cart API served over HTTP/1.1: ``CartAPI`` on an ``HTTPServer`` with the cart's limits
/// and access rules.
///
/// ```swift
/// let service = CartService(repository: try SQLiteCartRepository(path: "shop.sqlite3", readers: 4))
/// let server = try CartHTTPServer(
///     service: service,
///     configuration: CartHTTPConfiguration(
///         port: 0, cartIDKey: CartIDKey(storeSecret: try service.storeSecret()), storeKind: "sqlite",
///         accessLog: { print($0) }))
/// print("Listening on \(server.url)")
/// // on SIGTERM:
/// server.stop()
/// ```
///
/// Requests run on the server's threads against the synchronous service. Without an admin
/// token the server listens on loopback only.
public final class CartHTTPServer: Sendable {
    /// The numeric address listened on, such as `127.0.0.1`.
    public let host: String
    /// The port listened on: the real one when 0 was asked for.
    public let port: UInt16
    /// The API the server answers with.
    public let api: CartAPI
    private let server: HTTPServer

    /// Starts serving `service` as `configuration` says.
    ///
    /// - Throws: what ``CartHTTPConfiguration/validate()`` throws, or
    ///   ``CartHTTPServerError/server(_:)`` when the configuration is out of range or the
    ///   address cannot be listened on.
    public init(service: CartService, configuration: CartHTTPConfiguration) throws(CartHTTPServerError) {
        try configuration.validate()
        let api = try CartAPI(service: service, configuration: configuration)
        var accessLine: (@Sendable (HTTPAccessLogEntry) -> Void)?
        if let log = configuration.accessLog { accessLine = { entry in log(entry.line) } }
        let perIP = configuration.maxConnectionsPerIP ?? (configuration.listensOnLoopbackOnly ? 0 : 64)
        let errorResponse: @Sendable (Int, String) -> HTTPResponse = { status, message in
            APIError.serverResponse(status: status, message: message)
        }
        let http = HTTPServerConfiguration(
            host: configuration.host, port: configuration.port, threads: configuration.threads,
            maxBodyBytes: configuration.maxBodyBytes, maxConnections: configuration.maxConnections,
            maxConnectionsPerIP: perIP,
            connectionTimeout: configuration.connectionTimeout,
            connectionMemoryLimit: configuration.connectionMemoryLimit,
            streamHeartbeatInterval: configuration.streamHeartbeatInterval, errorLog: configuration.errorLog,
            accessLog: accessLine,
            errorResponse: errorResponse)
        do throws(HTTPServerError) {
            server = try HTTPServer(configuration: http, handler: api.handler)
        } catch {
            api.close()
            throw .server(error)
        }
        self.api = api
        host = server.host
        port = server.port
    }

    /// Checks that the address `configuration` names could be listened on now (see
    /// ``HTTPServer/checkAddress(host:port:)``), before anything is prepared for the server.
    ///
    /// - Throws: ``CartHTTPServerError/server(_:)`` when the host does not resolve or the
    ///   port is in use.
    public static func checkAddress(of configuration: CartHTTPConfiguration) throws(CartHTTPServerError) {
        do throws(HTTPServerError) {
            try HTTPServer.checkAddress(host: configuration.host, port: configuration.port)
        } catch {
            throw .server(error)
        }
    }

    /// `host:port` as it goes in a URL: `127.0.0.1:8080`, or `[::1]:8080`.
    public var authority: String {
        server.authority
    }

    /// `http://host:port`, the base of every route.
    public var url: String {
        "http://" + authority
    }

    /// Stops gracefully: no new connections, event streams ended cleanly, requests in flight
    /// given until `deadline` to finish. Must not be called from a server thread.
    ///
    /// - Returns: whether every request in flight finished in time.
    @discardableResult
    public func stop(deadline: Duration = .seconds(10)) -> Bool {
        let finished = server.stop(deadline: deadline)
        api.close()
        return finished
    }

    /// Whether a request is in flight (``HTTPServer/hasRequestsInFlight``).
    public var hasRequestsInFlight: Bool { server.hasRequestsInFlight }
}
