#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CartCore
import Hashing
import HTTPServer

/// Writes response bodies with the project's JSON settings (`CartJSON.encoder()`).
enum JSONBody {
    /// `value` as JSON bytes; nil in the case that cannot happen for the API's shapes (plain
    /// values with string keys), an encoder failure.
    static func encode(_ value: some Encodable) -> [UInt8]? {
        try? Array(CartJSON.encoder().encode(value))
    }

    /// A JSON response that no cache keeps: API answers are per cart and change at any time.
    static func response(_ value: some Encodable, status: Int = 200, headers: HTTPHeaders = [:]) -> HTTPResponse {
        var headers = headers
        headers.set("Cache-Control", "no-store")
        guard let body = encode(value) else { return encodingFailure }
        return .json(body, status: status, headers: headers)
    }

    /// A JSON response tagged with the SHA-256 of its bytes, which caches keep but check
    /// before reuse, under `request`'s preconditions
    /// (``EntityTag/response(_:tag:contentType:what:to:headers:)``):
    /// for a resource that many clients read again and again, and that seldom changes.
    ///
    /// - Throws: 400 for a malformed `If-Match` or `If-None-Match`; 412 `precondition_failed`.
    static func taggedResponse(_ value: some Encodable, what: String, to request: HTTPRequest) throws(APIError) -> HTTPResponse {
        guard let body = encode(value) else { return encodingFailure }
        return try EntityTag.response(
            body, tag: SHA256.hex(SHA256.digest(body)), contentType: "application/json", what: what, to: request)
    }

    /// The 500 for an answer the encoder could not write.
    private static var encodingFailure: HTTPResponse {
        .json(
            Array(#"{"error":{"code":"internal_error","message":"The answer could not be encoded."}}"#.utf8), status: 500,
            headers: ["Cache-Control": "no-store"])
    }
}
