import CartCore
import HTTPServer

/// One request as a route's handler sees it: the HTTP request, the parameters its path
/// template took, and readers that apply the API's rules to its body, query and headers.
struct APIRequest {
    /// The request as it arrived.
    let http: HTTPRequest
    /// The path parameters, in the template's order.
    let parameters: [(name: String, value: String)]
    /// Whether the request may do what the admin does: it holds the admin token, or the server
    /// has none.
    let isAdmin: Bool

    /// A path parameter of the route (which has it).
    func parameter(_ name: String) -> String {
        parameters.first { $0.name == name }?.value ?? ""
    }

    /// The query, with only `allowed` names.
    ///
    /// - Throws: 400 for a query that cannot be decoded, an unknown name or a repeated one.
    func query(allowed: [String]) throws(APIError) -> QueryParameters {
        switch http.query {
        case .success(let query): return try QueryParameters(query, allowed: allowed)
        case .failure(let error): throw .badRequest("invalid_target", CartAPI.sentence(error.description))
        }
    }

    /// The body's fields: a JSON object with only `allowed` fields, sent as
    /// `application/json`. An empty body, or one of white space only, has no fields, unless one
    /// is `required`.
    ///
    /// - Throws: 415 for another content type or a content coding (`Content-Encoding` other
    ///   than `identity`: bodies are read as sent), 400 for a missing, malformed or unknown
    ///   body, or a repeated `Content-Type`.
    func body(allowed: [String], required: Bool) throws(APIError) -> BodyFields {
        let codings = http.headers.values(for: "Content-Encoding").flatMap { $0.split(separator: ",") }
            .map { String($0).trimmingSpaces.lowercased() }.filter { !$0.isEmpty && $0 != "identity" }
        if let coding = codings.first {
            throw APIError(
                status: 415, code: "unsupported_content_encoding",
                message: "Send the body without a content coding, not '\(DisplayText.clean(coding))'.")
        }
        let contentType = try Self.onlyValue(of: "Content-Type", in: http)
        if !http.body.isEmpty || contentType != nil {
            guard let contentType, Self.isJSON(contentType) else {
                throw APIError(
                    status: 415, code: "unsupported_media_type",
                    message: "Send the body as application/json (UTF-8)"
                        + (contentType.map { ", not '\(DisplayText.clean($0))'." } ?? "; the Content-Type header is missing."))
            }
        }
        // A body of white space only (a client's trailing newline) holds no JSON text: no body.
        if http.body.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            guard !required else { throw .badRequest("missing_body", "This request needs a JSON object body.") }
            return .none
        }
        return try BodyFields(parsing: http.body, allowed: allowed)
    }

    /// The one value of a header; nil when absent.
    ///
    /// - Throws: 400 `invalid_header` when it is repeated.
    func header(_ name: String) throws(APIError) -> String? {
        try Self.header(name, in: http)
    }

    /// The one value of header `name` of `request`, without the spaces around it (RFC 9110
    /// §5.5); nil when absent.
    ///
    /// - Throws: 400 `invalid_header` when it is repeated.
    static func header(_ name: String, in request: HTTPRequest) throws(APIError) -> String? {
        try onlyValue(of: name, in: request)?.trimmingSpaces
    }

    /// The one value of header `name` of `request` as it arrived; nil when absent.
    ///
    /// - Throws: 400 `invalid_header` when it is repeated, since a proxy or a framework in
    ///   front could read another of its values.
    private static func onlyValue(of name: String, in request: HTTPRequest) throws(APIError) -> String? {
        let values = request.headers.values(for: name)
        guard values.count <= 1 else { throw .badRequest("invalid_header", "The \(name) header is given more than once.") }
        return values.first
    }

    /// Whether `value` is `application/json`, with no charset or the UTF-8 one.
    static func isJSON(_ value: String) -> Bool {
        // Nearly every client sends exactly this.
        if value == "application/json" { return true }
        let parts = value.split(separator: ";", omittingEmptySubsequences: false).map { String($0).trimmingSpaces.lowercased() }
        guard parts.first == "application/json" else { return false }
        // RFC 9110 §5.6.6 allows empty parameters: `application/json;` and `;;` are fine.
        for parameter in parts.dropFirst() where !parameter.isEmpty {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { String($0).trimmingSpaces }
            guard pair.count == 2, !pair[0].isEmpty else { return false }
            if pair[0] == "charset", pair[1] != "utf-8", pair[1] != "\"utf-8\"" { return false }
        }
        return true
    }
}
