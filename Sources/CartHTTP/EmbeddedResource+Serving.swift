import HTTPServer

extension EmbeddedResource {
    /// The resource as a response with a strong `ETag` (its SHA-256) that caches must check
    /// before reuse, under `request`'s preconditions (RFC 9110 §13.2.2): 412 when `If-Match`
    /// names another tag, then 304 when `If-None-Match` names this one. The 304 keeps the
    /// bytes so that its `Content-Length` is the 200's, as RFC 9110 §8.6 requires;
    /// libmicrohttpd sends no body with a 304.
    ///
    /// - Throws: 400 for a malformed `If-Match` or `If-None-Match`; 412 `precondition_failed`.
    func response(to request: HTTPRequest, contentType: String) throws(APIError) -> HTTPResponse {
        var headers: HTTPHeaders = [
            "ETag": "\"\(sha256)\"", "Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff",
        ]
        guard try EntityTag.ifMatchAllows(request, tag: sha256) else {
            throw APIError(
                status: 412, code: "precondition_failed",
                message: "If-Match names another version of this file; its tag is \"\(sha256)\".")
        }
        if try EntityTag.ifNoneMatchNames(request, tag: sha256) {
            return HTTPResponse(status: 304, headers: headers, body: .bytes(bytes))
        }
        headers.set("Content-Type", contentType)
        return HTTPResponse(status: 200, headers: headers, body: .bytes(bytes))
    }
}
