public import CartCore
public import HTTPServer
import Synchronization

/// The cart API over any `CartService`: routes, access rules, JSON shapes and error statuses,
/// as one synchronous ``HTTPHandler``. ``CartHTTPServer`` serves it; a test or another server
/// can call ``respond(to:)`` directly.
///
/// ```swift
/// let api = try CartAPI(service: service, configuration: CartHTTPConfiguration(storeKind: "memory"))
/// let response = api.respond(to: HTTPRequest(method: "GET", target: "/v1/health"))
/// ```
///
/// Every handler runs on the calling thread against the synchronous service. Storefront
/// routes reach carts minted by ``CartIDMinter`` with the configured key; every other cart,
/// and the admin routes, need the admin token when there is one.
public final class CartAPI: Sendable {
    /// The service every route calls.
    public let service: CartService
    /// Mints and recognises storefront cart IDs.
    public let minter: CartIDMinter
    let adminToken: AdminToken?
    let storeKind: String
    /// Whether requests must name a loopback host (`Host: 127.0.0.1:8080`), so that a web page
    /// elsewhere cannot reach a loopback server, open without a token, through a name it rebinds
    /// to 127.0.0.1, and that a change a browser sends must come from a loopback `Origin`. With
    /// a token the admin routes are closed anyway, and a reverse proxy in front of a loopback
    /// server passes the public name on.
    let requiresLoopbackHost: Bool
    let events: CartEventHub
    /// The most event streams open at once (``CartHTTPConfiguration/maxEventStreams``).
    let maxEventStreams: Int
    /// How many event streams are open, or about to be. Under a lock, so that an opener checks
    /// the count and takes its place in one step: an opener refused never counts, even for a
    /// moment, and so never turns away another that fits.
    let openEventStreams = Mutex(0)
    /// What the server writes to every cart event stream each heartbeat interval: an event
    /// `heartbeat` that names the interval, so that a client can tell a stream gone silent.
    let heartbeat: [UInt8]
    let log: @Sendable (String) -> Void
    /// The error log's lines for store failures and for streams refused at the cap.
    let failures: FailureLog

    /// The API over `service` with `configuration`'s token, key, store kind and event polling.
    ///
    /// - Throws: ``CartHTTPServerError/invalidAdminToken(_:)``, or
    ///   ``CartHTTPServerError/server(_:)`` for an event poll interval outside 10 ms to 60 s.
    public init(service: CartService, configuration: CartHTTPConfiguration) throws(CartHTTPServerError) {
        try configuration.validateEventPollInterval()
        self.service = service
        minter = CartIDMinter(key: configuration.cartIDKey)
        adminToken = try configuration.adminToken.map { token throws(CartHTTPServerError) in try AdminToken(token) }
        storeKind = configuration.storeKind
        requiresLoopbackHost = configuration.listensOnLoopbackOnly && configuration.adminToken == nil
        let log = configuration.errorLog ?? { _ in }
        self.log = log
        failures = FailureLog(log: log)
        heartbeat = Self.heartbeatEvent(every: configuration.streamHeartbeatInterval)
        maxEventStreams = configuration.maxEventStreams
        events = CartEventHub(
            repository: service.repository, interval: configuration.eventPollInterval,
            read: { cartID in Self.cartEvent(try service.cartReport(cartID).json) }, log: log,
            notice: configuration.noticeLog ?? log)
    }

    deinit {
        events.stop()
    }

    /// The heartbeat event for `interval`: `event: heartbeat` with the data
    /// `{"interval":SECONDS}`.
    static func heartbeatEvent(every interval: Duration) -> [UInt8] {
        // In whole milliseconds, written as Swift writes a Double: 0.05, 1.5, and 15 for 15.0.
        let seconds = (interval / .milliseconds(1)).rounded(.down) / 1000
        let text = Int64(exactly: seconds).map { String($0) } ?? String(seconds)
        return Array("event: heartbeat\ndata: {\"interval\":\(text)}\n\n".utf8)
    }

    /// The `cart` event whose data is `json`, a cart's JSON. `JSONWriter` escapes every line
    /// break, so the JSON is one `data:` line.
    static func cartEvent(_ json: [UInt8]) -> [UInt8] {
        var event = Array("event: cart\ndata: ".utf8)
        event.reserveCapacity(event.count + json.count + 2)
        event += json
        event += "\n\n".utf8
        return event
    }

    /// The handler to give an ``HTTPServer``.
    public var handler: HTTPHandler {
        { [self] request in respond(to: request) }
    }

    /// Stops the thread behind the event streams; the server ends the streams themselves.
    public func close() {
        events.stop()
    }

    /// Answers one request.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        do {
            try checkHeaderNames(of: request)
            try checkHost(of: request)
            try checkOrigin(of: request)
            let segments: [String]
            switch request.path {
            case .success(let path): segments = path
            case .failure(.dotSegment): throw APIError.noRoute
            case .failure(let error): throw APIError.badRequest("invalid_target", Self.sentence(error.description))
            }
            if let file = try ShopFiles.response(to: request, path: segments) { return file }
            let (route, parameters) = try Self.route(request.method, segments)
            let request = APIRequest(http: request, parameters: parameters, isAdmin: try holdsAdminToken(request))
            if route.access == .admin { try requireAdmin(request, "This needs the admin token") }
            let response = try route.handler(self, request)
            // A resource without entity tags matches no tag that If-Match names. The route
            // answers first, so that its 400, 401 or 404 stays as it is (RFC 9110 §13.2.1):
            // such a route changes nothing (a read, a stream, a mint, which stores nothing),
            // and a stream it opened is closed unsent.
            guard !route.readsIfMatch, (200...299).contains(response.status) else { return response }
            do {
                try EntityTag.refuseTagsOfUntagged(request.http)
            } catch {
                if case .stream(let stream) = response.body { stream.close() }
                throw error
            }
            return response
        } catch {
            return APIError(error, log: failures).response
        }
    }

    /// The route for `method` on the path `segments`, with its parameters.
    ///
    /// A GET route also answers HEAD, unless its body is streamed.
    ///
    /// - Throws: 404 when no template matches (saying so when one would without a trailing
    ///   slash), 405 with `Allow` when the best-matching template
    ///   has no route for the method (any method, `QUERY` or `FOO` too: 501 would be a server
    ///   error to clients that probe with methods the document does not list).
    static func route(
        _ method: String, _ segments: [String]
    ) throws(APIError) -> (CartRoute, [(name: String, value: String)]) {
        // The candidates are the matching templates with the most literal segments, in the
        // table's order, found without copying the routes into an array.
        guard let mostLiteral = routes.lazy.filter({ $0.matches(segments) }).map(\.literalCount).max() else {
            if segments.count > 1, segments.last == "", routes.contains(where: { $0.matches(Array(segments.dropLast())) }) {
                throw APIError(
                    status: 404, code: "route_not_found", message: "No such resource: this API's paths end without a '/'.")
            }
            throw .noRoute
        }
        let candidates = routes.lazy.filter { $0.literalCount == mostLiteral && $0.matches(segments) }
        // HEAD is GET without the body, which libmicrohttpd leaves out (RFC 9110 §9.3.2).
        let route = candidates.first { method == "HEAD" ? $0.answersHead : $0.method == method }
        if let route { return (route, route.parameters(in: segments)) }
        let allowed = candidates.flatMap { $0.answersHead ? [$0.method, "HEAD"] : [$0.method] }.joined(separator: ", ")
        throw .methodNotAllowed(method, allowed: allowed)
    }

    /// Whether `request` may do what the admin does: it holds the admin token, or the server
    /// has none. A token that is wrong is refused on every route, the storefront's too, so that
    /// a client sending the wrong one hears of it (RFC 6750 §3.1).
    ///
    /// - Throws: 401 `invalid_token` with `WWW-Authenticate` for a wrong bearer token, 400
    ///   `invalid_header` for a repeated `Authorization`.
    private func holdsAdminToken(_ request: HTTPRequest) throws(APIError) -> Bool {
        guard let adminToken else { return true }
        switch adminToken.credentials(of: request) {
        case .valid:
            return true
        case .missing:
            return false
        case .wrong:
            var error = APIError(status: 401, code: "invalid_token", message: "The bearer token is not the admin token.")
            error.headers.set("WWW-Authenticate", #"Bearer realm="cart", error="invalid_token""#)
            throw error
        case .repeated:
            throw .badRequest("invalid_header", "The Authorization header is given more than once.")
        }
    }

    /// Refuses a request that lacks the admin token.
    ///
    /// - Throws: 401 with `WWW-Authenticate`, saying `why` the token is needed.
    func requireAdmin(_ request: APIRequest, _ why: String) throws(APIError) {
        guard !request.isAdmin else { return }
        let inQuery = (try? request.http.query.get().value(HTTPAccessLogEntry.redactedQueryParameter)) != nil
        // A wrong bearer token was refused already; an Authorization header here is another
        // scheme (Basic), or the Bearer scheme without a token.
        let note =
            !request.http.headers.values(for: "Authorization").isEmpty
            ? " (the Authorization header sent holds no bearer token)."
            : inQuery ? " (a token in the query is not read)." : "."
        var error = APIError(status: 401, code: "unauthorized", message: why + ": send Authorization: Bearer TOKEN" + note)
        error.headers.set("WWW-Authenticate", #"Bearer realm="cart""#)
        throw error
    }

    /// The cart ID in the path parameter `name`, if the request may reach that cart.
    ///
    /// - Throws: what `reachableCartID(_:by:)` throws.
    func cartID(_ request: APIRequest, _ name: String = "id") throws(APIError) -> String {
        try reachableCartID(request.parameter(name), by: request)
    }

    /// `id`, if `request` may reach that cart: one this server minted (a well-formed ID by
    /// construction), or any well-formed ID with the admin token.
    ///
    /// - Throws: 400 `invalid_cart_id` for a malformed ID, 401 for a cart not minted here
    ///   without the admin token.
    func reachableCartID(_ id: String, by request: APIRequest) throws(APIError) -> String {
        if minter.isMinted(id) { return id }
        do {
            _ = try CartService.validatedCartID(id)
        } catch {
            throw .badRequest(error.code, error.description)
        }
        // Most often a storefront's saved ID from another store or key: it needs a new cart.
        try requireAdmin(
            request,
            "This server did not mint cart '\(DisplayText.clean(id))'; a storefront starts a new cart with POST /v1/carts. Other carts need the admin token")
        return id
    }

    /// Refuses a header whose name is not an RFC 9110 token (`Bad Name: x`), which
    /// libmicrohttpd passes on: no reader may see a header another would not.
    ///
    /// - Throws: 400 `malformed_header`.
    private func checkHeaderNames(of request: HTTPRequest) throws(APIError) {
        for (name, _) in request.headers {
            guard HTTPHeaders.isFieldName(name) else {
                throw APIError.badRequest("malformed_header", "A header name is not a token: '\(DisplayText.clean(name))'.")
            }
        }
    }

    /// Refuses a request whose host is malformed, and one for another host name than
    /// loopback's while listening on loopback without an admin token.
    ///
    /// - Throws: 400 `invalid_host`, 421 `misdirected_request`.
    private func checkHost(of request: HTTPRequest) throws(APIError) {
        guard let host = try RequestHost.of(request), requiresLoopbackHost else { return }
        guard !CartHTTPConfiguration.isLoopback(String(host.name)) else { return }
        throw APIError(
            status: 421, code: "misdirected_request",
            message: "This server answers for loopback names only (127.0.0.1, [::1], localhost), not '\(DisplayText.clean(String(host.name)))'.")
    }

    /// Refuses a change that a browser sends for a page of another origin. A form, or a `fetch`
    /// in `no-cors` mode, sends a POST without a body with no preflight, so the server itself
    /// tells such requests apart, by the `Sec-Fetch-Site` that browsers send to loopback and
    /// HTTPS servers. Browsers too old to send it (before Chrome 76, Firefox 90, Safari 16.4)
    /// still send `Origin`, so without `Sec-Fetch-Site`, where ``requiresLoopbackHost`` holds, a change whose `Origin`
    /// names no loopback host (`null` included) is refused too: there no reverse proxy can have
    /// rewritten `Host`, which must name loopback, so the shop's own pages are on loopback.
    /// Elsewhere `Origin` is not compared: behind a proxy the shop's own requests carry the
    /// public origin. A request without either header (curl, the CLI, another server) passes.
    ///
    /// - Throws: 403 `cross_origin_request`; 400 `invalid_header` when a header it reads is
    ///   repeated, since a proxy or a framework in front could read another of its values.
    private func checkOrigin(of request: HTTPRequest) throws(APIError) {
        guard request.method != "GET", request.method != "HEAD", request.method != "OPTIONS" else { return }
        let refusal = APIError(
            status: 403, code: "cross_origin_request",
            message: "A page of another origin may not change the store through a browser.")
        // A browser that sends `Sec-Fetch-Site` is taken at its word, whatever its `Origin`
        // (`null` under some referrer policies, even for the page's own origin).
        if let site = try APIRequest.header("Sec-Fetch-Site", in: request) {
            guard site == "same-origin" || site == "none" else { throw refusal }
            return
        }
        guard requiresLoopbackHost, let origin = try APIRequest.header("Origin", in: request) else { return }
        guard Self.namesLoopbackHost(origin: origin) else { throw refusal }
    }

    /// Whether `origin`, as a browser serializes it (`http://127.0.0.1:8080`, RFC 6454 §6.2),
    /// names a loopback host; `null`, and anything else that is not `scheme://host[:port]`,
    /// does not.
    static func namesLoopbackHost(origin: String) -> Bool {
        guard let separator = origin.firstRange(of: "://"), separator.lowerBound > origin.startIndex,
            let host = RequestHost(parsing: origin[separator.upperBound...])
        else { return false }
        return CartHTTPConfiguration.isLoopback(String(host.name))
    }

    /// `text` as a sentence: capital first letter, full stop at the end.
    static func sentence(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst() + (text.hasSuffix(".") ? "" : ".")
    }
}
