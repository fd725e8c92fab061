import CMicroHTTPD
import CMicroHTTPDLoader
import Dispatch
import Synchronization
import Glibc

/// Answers one request. It runs synchronously on one of the server's threads and may block
/// (on a database, say); it is called from several threads at once.
public typealias HTTPHandler = @Sendable (HTTPRequest) -> HTTPResponse

/// An HTTP/1.1 server on libmicrohttpd, calling a synchronous handler on a pool of threads.
///
/// libmicrohttpd parses requests and writes responses (keep-alive, pipelining, chunked
/// bodies both ways, `100 Continue`, `HEAD`); each pool thread runs its own epoll loop over
/// the connections it accepted. The server adds what an application needs on top: bounded
/// bodies, safely decoded targets (``HTTPRequest``), header-injection-proof responses
/// (``HTTPResponse``), streams (``HTTPStream``), an access log and a graceful stop.
///
/// ```swift
/// let server = try HTTPServer(configuration: .init(port: 0)) { request in
///     .json(Array(#"{"status":"ok"}"#.utf8))
/// }
/// print("Listening on http://\(server.authority)")
/// // ...
/// server.stop()
/// ```
///
/// A server that is no longer referenced stops itself, with the default deadline; the last
/// reference must therefore not go away on one of its own threads.
public final class HTTPServer: Sendable {
    /// The numeric address listened on, such as `127.0.0.1`.
    public let host: String
    /// The port listened on: the real one when port 0 was asked for.
    public let port: UInt16
    private let context: ServerContext

    /// Starts a server listening as `configuration` says, answering with `handler`.
    ///
    /// - Throws: ``HTTPServerError/invalidConfiguration(_:)`` for a value out of range,
    ///   ``HTTPServerError/invalidHost(_:)`` for a host that does not resolve, and
    ///   ``HTTPServerError/cannotListen(host:port:reason:)`` when libmicrohttpd cannot start
    ///   (the port is in use, say).
    public init(configuration: HTTPServerConfiguration = HTTPServerConfiguration(), handler: @escaping HTTPHandler)
        throws(HTTPServerError)
    {
        try configuration.validate()
        let address = try ListenAddress(host: configuration.host, port: configuration.port)
        let context = ServerContext(configuration: configuration, handler: handler)
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue
            | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ERROR_LOG.rawValue
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        var options: [MHD_OptionItem] = [
            MHD_OptionItem(option: .CONNECTION_LIMIT, value: configuration.maxConnections, ptr_value: nil),
            MHD_OptionItem(
                option: .PER_IP_CONNECTION_LIMIT, value: configuration.maxConnectionsPerIP, ptr_value: nil),
            MHD_OptionItem(
                option: .CONNECTION_TIMEOUT, value: configuration.connectionTimeoutSeconds, ptr_value: nil),
            MHD_OptionItem(
                option: .CONNECTION_MEMORY_LIMIT, value: configuration.connectionMemoryLimit, ptr_value: nil),
            // Refuses HTTP/1.1 requests without Host and spaces inside the target.
            MHD_OptionItem(option: .STRICT_FOR_CLIENT, value: 1, ptr_value: nil),
        ]
        if configuration.threads > 1 {
            options.append(
                MHD_OptionItem(option: .THREAD_POOL_SIZE, value: configuration.threads, ptr_value: nil))
        }
        options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))
        let cls = Unmanaged.passRetained(context)
        let daemon = address.withSockaddr { sockaddr in
            cart_mhd_start_daemon(
                flags, sockaddr, MHDCallbacks.acceptPolicy, MHDCallbacks.access, MHDCallbacks.log,
                MHDCallbacks.requestStarted, MHDCallbacks.requestCompleted, cls.toOpaque(), options)
        }
        guard let daemon else {
            cls.release()
            let reason = Self.libraryProblem() ?? Self.reason(context.startFailure ?? "")
            throw .cannotListen(
                host: configuration.host, port: configuration.port,
                reason: reason.isEmpty ? "libmicrohttpd did not start" : reason)
        }
        context.started(daemon, releasing: cls)
        self.context = context
        self.host = address.host
        self.port = cart_mhd_bound_port(daemon)
    }

    deinit {
        stop()
    }

    /// Checks that `host` is an IP address (brackets around an IPv6 one allowed) or a name that
    /// resolves, as the server's start needs.
    ///
    /// - Throws: ``HTTPServerError/invalidHost(_:)``.
    public static func checkHost(_ host: String) throws(HTTPServerError) {
        _ = try ListenAddress(host: host, port: 0)
    }

    /// Checks that this machine could listen on `host` and `port` now, by binding a socket
    /// there as libmicrohttpd does (`SO_REUSEADDR`) and closing it, so that a caller can find
    /// out before it prepares what a server needs (creates a store, say); libmicrohttpd is
    /// loaded too. Another process may still take the port before the server starts; port 0
    /// always passes.
    ///
    /// - Throws: ``HTTPServerError/invalidHost(_:)`` and
    ///   ``HTTPServerError/cannotListen(host:port:reason:)``, as ``init(configuration:handler:)``
    ///   would.
    public static func checkAddress(host: String, port: UInt16) throws(HTTPServerError) {
        let address = try ListenAddress(host: host, port: port)
        if cart_microhttpd_open() != 0, let problem = libraryProblem() {
            throw .cannotListen(host: host, port: port, reason: problem)
        }
        let probe = socket(address.isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        // Without a socket to try, the server's own start says what is wrong.
        guard probe >= 0 else { return }
        defer { close(probe) }
        var on: Int32 = 1
        _ = setsockopt(probe, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        if address.isIPv6 { _ = setsockopt(probe, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &on, socklen_t(MemoryLayout<Int32>.size)) }
        guard address.withSockaddr({ bind(probe, $0, address.length) }) == 0 else {
            throw .cannotListen(host: host, port: port, reason: String(cString: strerror(errno)))
        }
    }

    /// Why libmicrohttpd cannot be loaded, in words that say what to install; nil once it is.
    private static func libraryProblem() -> String? {
        cart_microhttpd_error().map {
            "libmicrohttpd cannot be loaded (\(String(cString: $0))); install it (Debian: libmicrohttpd12)"
        }
    }

    /// libmicrohttpd's message about a failed start, without its own "Failed to bind to port
    /// N: " in front of the system's reason: it names the port option, 0 when an address is
    /// given, and the error already names the address and port.
    static func reason(_ message: String) -> String {
        guard message.hasPrefix("Failed to bind to port "), let colon = message.firstRange(of: ": ") else { return message }
        return String(message[colon.upperBound...])
    }

    /// `host:port` as it goes in a URL: `127.0.0.1:8080`, or `[::1]:8080` for IPv6.
    public var authority: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Stops the server gracefully and returns when it has stopped.
    ///
    /// It stops taking connections (a new one is closed as soon as it is accepted, unanswered),
    /// closes every open stream cleanly, lets requests in flight finish for up to `deadline`
    /// (their responses carry `Connection: close`), then closes every connection left and
    /// joins the threads. A handler still running at the deadline is waited for: it cannot be
    /// interrupted. Calling it again, from any thread, waits for the first call and returns its
    /// result. It must not be called from a server thread (a handler, a log closure, a stream's
    /// close action), which it would wait for.
    ///
    /// - Returns: whether every request in flight finished before the deadline.
    @discardableResult
    public func stop(deadline: Duration = .seconds(10)) -> Bool {
        context.stop(deadline: deadline)
    }

    /// Whether a request is in flight: its headers are whole and it has not completed, a
    /// stream's until its last byte is sent or it is cut off.
    public var hasRequestsInFlight: Bool {
        context.inFlight.wait(timeout: .now()) == .timedOut
    }
}
