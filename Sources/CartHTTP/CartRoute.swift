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
    /// Whether the route also answers HEAD: a GET route whose body has a known length.
    /// libmicrohttpd 0.9.75 sends a chunked body's last chunk in answer to HEAD, so a streamed
    /// GET answers GET alone.
    public let answersHead: Bool
    /// Whether the handler evaluates `If-Match` against entity tags of its own (a cart's
    /// version, a file's digest, a product's existence). On any other route `CartAPI` refuses
    /// an `If-Match` that names tags once the handler has answered, so a route that changes
    /// the store must read it.
    let readsIfMatch: Bool
    let handler: @Sendable (CartAPI, APIRequest) throws -> HTTPResponse
    /// The template's segments: a literal, or nil for a `{parameter}`.
    private let literals: [String?]
    /// The parameters' names, in the template's order.
    private let parameterNames: [String]
    /// How many of the template's segments are literals: where two templates match one path
    /// (`/v1/orders/stats` and `/v1/orders/{number}`), the more literal one wins.
    let literalCount: Int

    init(
        _ method: String, _ path: String, _ operationID: String, _ access: Access, streams: Bool = false,
        readsIfMatch: Bool = false, _ handler: @escaping @Sendable (CartAPI, APIRequest) throws -> HTTPResponse
    ) {
        self.method = method
        self.path = path
        self.operationID = operationID
        self.access = access
        answersHead = method == "GET" && !streams
        self.readsIfMatch = readsIfMatch
        self.handler = handler
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        literals = segments.map { $0.hasPrefix("{") ? nil : String($0) }
        parameterNames = segments.filter { $0.hasPrefix("{") }.map { String($0.dropFirst().dropLast()) }
        literalCount = literals.count - parameterNames.count
    }

    /// Whether the template matches the path `segments`: a literal segment must be equal, a
    /// parameter takes any segment but an empty one.
    func matches(_ segments: [String]) -> Bool {
        guard literals.count == segments.count else { return false }
        for (literal, segment) in zip(literals, segments) {
            if let literal { if literal != segment { return false } } else if segment.isEmpty { return false }
        }
        return true
    }

    /// The parameters a matching path gives this route, in the template's order. A template
    /// has at most two, so a list is quicker to make and search than a dictionary.
    func parameters(in segments: [String]) -> [(name: String, value: String)] {
        var parameters: [(name: String, value: String)] = []
        parameters.reserveCapacity(parameterNames.count)
        var names = parameterNames.makeIterator()
        for (literal, segment) in zip(literals, segments) where literal == nil {
            if let name = names.next() { parameters.append((name: name, value: segment)) }
        }
        return parameters
    }
}
