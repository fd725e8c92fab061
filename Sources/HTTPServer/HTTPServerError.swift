/// Why an ``HTTPServer`` could not start.
public enum HTTPServerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A configuration value is out of range; the message names it.
    case invalidConfiguration(String)
    /// The host is neither an IP address nor a name that resolves.
    case invalidHost(String)
    /// libmicrohttpd could not start: the address is in use, say. Holds its last message.
    case cannotListen(host: String, port: UInt16, reason: String)

    /// A one-line human description.
    public var description: String {
        switch self {
        case .invalidConfiguration(let message): "invalid server configuration: \(message)"
        case .invalidHost(let host): "cannot listen on '\(host)': not an IP address or a known host name"
        case .cannotListen(let host, let port, let reason): "cannot listen on \(host) port \(port): \(reason)"
        }
    }
}
