import HTTPServer

extension EmbeddedResource {
    /// The resource as a response tagged with its SHA-256
    /// (``EntityTag/response(_:tag:contentType:what:to:headers:)``).
    ///
    /// - Throws: 400 for a malformed `If-Match` or `If-None-Match`; 412 `precondition_failed`.
    func response(to request: HTTPRequest, contentType: String) throws(APIError) -> HTTPResponse {
        try EntityTag.response(
            bytes, tag: sha256, contentType: contentType, what: "this file", to: request,
            headers: ["X-Content-Type-Options": "nosniff"])
    }
}
