#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CartCore
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
        guard let body = encode(value) else {
            return .json(Array(#"{"error":{"code":"internal_error","message":"The answer could not be encoded."}}"#.utf8), status: 500, headers: ["Cache-Control": "no-store"])
        }
        return .json(body, status: status, headers: headers)
    }
}
