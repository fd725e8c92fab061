import CartTestSupport
import HTTPServer

/// Starts a server on 127.0.0.1, port 0, with `adjust` applied to the configuration.
func startServer(
    _ adjust: (inout HTTPServerConfiguration) -> Void = { _ in }, handler: @escaping HTTPHandler
) throws -> HTTPServer {
    var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0)
    adjust(&configuration)
    return try HTTPServer(configuration: configuration, handler: handler)
}
