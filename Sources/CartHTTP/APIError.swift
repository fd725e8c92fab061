import CartCore
import HTTPServer

/// A refusal as the API answers it: a status, a snake_case code and a one-line message, plus
/// the headers some refusals carry (`Allow`, `WWW-Authenticate`, `Retry-After`) and, for a
/// version conflict, the current cart.
///
/// The body is `{"error":{"code":"…","message":"…"}}`, with `"cart"` or `"problems"` beside
/// `error` when set. A rule's refusal adds to `error` what a program needs of it, so that no
/// client reads the message: the SKU, the quantity the line would hold, the stock or cap.
struct APIError: Error, Encodable {
    /// The HTTP status.
    let status: Int
    /// What went wrong, for programs: `insufficient_stock`, `unknown_field`.
    let code: String
    /// What went wrong, for people, on one line.
    let message: String
    /// Headers the answer carries besides the content type.
    var headers: HTTPHeaders = [:]
    /// The cart as it is now, sent with a 412 so the client need not read it again.
    var cart: CartReport?
    /// Every problem that refused a checkout, sent with `cannot_check_out`.
    var problems: [CartProblem]?
    /// The product a refusal is about.
    var sku: String?
    /// The quantity the line would hold, as a merge adjustment's `requested`.
    var requested: Int?
    /// The stock or cap that refused the change, as a merge adjustment's `limit`.
    var limit: Int?

    private enum CodingKeys: String, CodingKey {
        case error, cart, problems
    }

    private enum DetailKeys: String, CodingKey {
        case code, message, sku, requested, limit
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        var detail = container.nestedContainer(keyedBy: DetailKeys.self, forKey: .error)
        try detail.encode(code, forKey: .code)
        try detail.encode(message, forKey: .message)
        try detail.encodeIfPresent(sku, forKey: .sku)
        try detail.encodeIfPresent(requested, forKey: .requested)
        try detail.encodeIfPresent(limit, forKey: .limit)
        try container.encodeIfPresent(cart, forKey: .cart)
        try container.encodeIfPresent(problems, forKey: .problems)
    }

    /// The response: the error shape as JSON, with the cart's `ETag` when it carries one.
    var response: HTTPResponse {
        var headers = headers
        if let cart { headers.set("ETag", EntityTag.header(for: cart.cart.version)) }
        return JSONBody.response(self, status: status, headers: headers)
    }

    /// 400: the request is malformed (bad JSON, a bad value, an unknown field).
    static func badRequest(_ code: String, _ message: String) -> APIError {
        APIError(status: 400, code: code, message: message)
    }

    /// 404 for a path that names nothing.
    static let noRoute = APIError(status: 404, code: "route_not_found", message: "No such resource.")

    /// 426 for a download sent in chunks, asked for over HTTP/1.0: without chunked coding, a
    /// body the server cuts short (a store failure halfway) ends as a whole one does, and the
    /// client could not tell.
    static var http11Required: APIError {
        var error = APIError(
            status: 426, code: "http_1_1_required",
            message: "This download is sent in chunks, which HTTP/1.0 cannot carry; send the request as HTTP/1.1.")
        error.headers.set("Upgrade", "HTTP/1.1")
        error.headers.set("Connection", "Upgrade")
        return error
    }

    /// 405 for `method` on a resource that takes only `allowed`, listed in `Allow`.
    static func methodNotAllowed(_ method: String, allowed: String) -> APIError {
        var error = APIError(
            status: 405, code: "method_not_allowed",
            message: "\(DisplayText.clean(method)) is not allowed on this resource; use \(allowed).")
        error.headers.set("Allow", allowed)
        return error
    }
}
