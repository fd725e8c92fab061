public import HTTPServer

/// Why a ``CartHTTPServer`` does not start.
public enum CartHTTPServerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Listening beyond loopback without an admin token would open the admin routes to the
    /// network. A command line maps this to a usage error (exit 64).
    case adminTokenRequired(host: String)
    /// The admin token is too short or holds characters a header cannot carry.
    case invalidAdminToken(String)
    /// The HTTP layer refused the configuration or could not listen.
    case server(HTTPServerError)

    /// A one-line human description.
    public var description: String {
        switch self {
        case .adminTokenRequired(let host):
            "listening on '\(host)', beyond loopback, needs an admin token"
        case .invalidAdminToken(let reason):
            "the admin token is not usable: \(reason)"
        case .server(let error):
            error.description
        }
    }
}
