import CartTestSupport
import Foundation

/// The built `cart serve --listen 127.0.0.1:0` running against a sandbox's store, and a raw
/// HTTP/1.1 client for it over real sockets.
final class RunningServer: Sendable {
    /// Why a server did not come up.
    struct NotListening: Error, CustomStringConvertible {
        let firstLine: String?
        var description: String { "cart serve printed \(firstLine.map(\.debugDescription) ?? "nothing") instead of 'Listening on'" }
    }

    /// The admin token `start(adminToken: true)` sets.
    static let token = "end-to-end-admin-token-0123"

    let process: RunningCart
    let port: UInt16

    /// Starts `cart serve` with `arguments` after `serve`, and waits for its `Listening on`
    /// line; `adminToken` sets `CART_ADMIN_TOKEN` to `token`; stderr goes to the file
    /// `errorLog` if given; `launcher`, when given, runs the binary (`CartSandbox.asNobody`).
    ///
    /// - Throws: `NotListening` when the first line is not `Listening on http://127.0.0.1:PORT`.
    init(
        in sandbox: CartSandbox, arguments: [String] = [], adminToken: Bool = false, errorLog: String? = nil,
        launcher: [String] = []
    ) throws {
        let environment = adminToken ? ["CART_ADMIN_TOKEN": Self.token] : [:]
        process = try RunningCart(
            ["serve", "--listen", "127.0.0.1:0"] + arguments, in: sandbox, environment: environment,
            errorLog: errorLog, launcher: launcher)
        let line = process.nextLine()
        let prefix = "Listening on http://127.0.0.1:"
        guard let line, line.hasPrefix(prefix), let port = UInt16(line.dropFirst(prefix.count)), port != 0 else {
            process.stop()
            throw NotListening(firstLine: line)
        }
        self.port = port
    }

    deinit {
        process.stop()
    }

    /// The Host header a client of this server sends.
    var host: String { "127.0.0.1:\(port)" }

    /// One request on a new connection: `json` as an `application/json` body, `token` as a
    /// bearer token, `headers` are more header lines.
    func send(
        _ method: String, _ target: String, json: String? = nil, headers: [String] = [], token: String? = nil
    ) throws -> TestResponse {
        let connection = try TestConnection(port: port)
        connection.send(request(method, target, json: json, headers: headers + ["Connection: close"], token: token))
        return try connection.readResponse()
    }

    /// The bytes of a request for this server.
    func request(_ method: String, _ target: String, json: String? = nil, headers: [String] = [], token: String? = nil)
        -> String
    {
        var lines = headers
        if json != nil { lines.append("Content-Type: application/json") }
        if let token { lines.append("Authorization: Bearer \(token)") }
        return rawRequest(method, target, host: host, headers: lines, body: json ?? "")
    }

    /// A cart minted by the server.
    func mint() throws -> String {
        let response = try send("POST", "/v1/carts")
        guard response.status == 201, let id = try response.object()["cart"] as? String else {
            throw TestConnection.Failure(description: "minting answered \(response.status): \(response.text)")
        }
        return id
    }
}
