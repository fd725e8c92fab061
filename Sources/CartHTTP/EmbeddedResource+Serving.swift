import HTTPServer

extension EmbeddedResource {
    /// The resource as a response with a strong `ETag` (its SHA-256) that caches must check
    /// before reuse: 304 when `request`'s `If-None-Match` names it. The 304 keeps the bytes
    /// so that its `Content-Length` is the 200's, as RFC 9110 §8.6 requires; libmicrohttpd
    /// sends no body with a 304.
    func response(to request: HTTPRequest, contentType: String) -> HTTPResponse {
        let tag = "\"\(sha256)\""
        var headers: HTTPHeaders = ["ETag": tag, "Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"]
        let wanted = request.headers.values(for: "If-None-Match").flatMap { $0.split(separator: ",") }.map {
            String($0).trimmingSpaces
        }
        if wanted.contains(tag) || wanted.contains("W/" + tag) || wanted.contains("*") {
            return HTTPResponse(status: 304, headers: headers, body: .bytes(bytes))
        }
        headers.set("Content-Type", contentType)
        return HTTPResponse(status: 200, headers: headers, body: .bytes(bytes))
    }
}
