import HTTPServer

/// One operation of the cart API: its method, its path template, who may call it, and the
/// handler. ``CartAPI/routes`` is the one table the router matches and the OpenAPI document
/// is checked against.
public struct CartRoute: Sendable {
    /// Who may call a route.
    public enum Access: String, Sendable {
        /// Anyone who reaches the server.
        case everyone
        /// Anyone for a cart the server minted; the admin for any other cart.
        case cart
        /// The admin only (`Authorization: Bearer TOKEN` when the server has a token).
        case admin
    }

    /// The method, such as `GET`.
    public let method: String
    /// The path template, such as `/v1/carts/{id}/items/{sku}`.
    public let path: String
    /// The OpenAPI `operationId`, such as `addItem`.
    public let operationID: String
    /// Who may call it.
    public let access: Access
    let handler: @Sendable (CartAPI, APIRequest) throws -> HTTPResponse
    /// The template's segments: literals, and `{name}` for a parameter.
    let segments: [Substring]
    /// How many of the template's segments are literals: where two templates match one path
    /// (`/v1/orders/stats` and `/v1/orders/{number}`), the more literal one wins.
    let literalCount: Int

    init(
        _ method: String, _ path: String, _ operationID: String, _ access: Access,
        _ handler: @escaping @Sendable (CartAPI, APIRequest) throws -> HTTPResponse
    ) {
        self.method = method
        self.path = path
        self.operationID = operationID
        self.access = access
        self.handler = handler
        segments = Array(path.split(separator: "/", omittingEmptySubsequences: false).dropFirst())
        literalCount = segments.filter { !$0.hasPrefix("{") }.count
    }

    /// The parameters `segments` gives this route, or nil when the template does not match
    /// them; a literal segment must be equal, a parameter takes any segment but an empty one.
    func match(_ segments: [String]) -> [String: String]? {
        guard self.segments.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (pattern, segment) in zip(self.segments, segments) {
            if pattern.hasPrefix("{") {
                guard !segment.isEmpty else { return nil }
                parameters[String(pattern.dropFirst().dropLast())] = segment
            } else if pattern != segment {
                return nil
            }
        }
        return parameters
    }
}
