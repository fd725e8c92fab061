/// A complete HTTP request as the server hands it to the application's handler.
///
/// The path and query are decoded from the raw target once, safely; when the target cannot
/// be decoded they hold the reason, so routing has to decide what to answer:
///
/// ```swift
/// switch request.path {
/// case .failure(.dotSegment): return .text("not found\n", status: 404)
/// case .failure(let error): return .text("\(error)\n", status: 400)
/// case .success(let segments): return route(request.method, segments)
/// }
/// ```
///
/// A decoded segment can contain `/` (sent as `%2F`) or `\`: segments are names, never
/// pieces of a file system path.
public struct HTTPRequest: Sendable {
    /// The method as sent, such as `GET` (methods are case-sensitive).
    public let method: String
    /// The raw request target as sent, such as `/v1/products/a%2Fb?limit=5`; bytes that are
    /// not UTF-8 appear as U+FFFD.
    public let target: String
    /// The host, and port if given, that an absolute-form target names (`127.0.0.1:8080` for
    /// `http://127.0.0.1:8080/v1/health`), which stands for the `Host` header (RFC 9112
    /// §3.2.2); nil for a target that is a path.
    public let authority: String?
    /// The decoded path segments (none for `/`), or why there are none.
    public let path: Result<[String], HTTPTargetError>
    /// The decoded query parameters, or why there are none.
    public let query: Result<HTTPQuery, HTTPTargetError>
    /// The protocol version as sent, such as `HTTP/1.1`.
    public let version: String
    /// The header fields as sent.
    public let headers: HTTPHeaders
    /// The body, after any chunked transfer coding was removed.
    public let body: [UInt8]
    /// The client's IP address, such as `127.0.0.1` or `::1`, when known.
    public let remoteAddress: String?

    /// Makes a request with the given raw target, which is decoded as the server decodes it.
    public init(
        method: String, target: String, version: String = "HTTP/1.1", headers: HTTPHeaders = [:],
        body: [UInt8] = [], remoteAddress: String? = nil
    ) {
        self.init(
            method: method, rawTarget: Array(target.utf8), version: version, headers: headers, body: body,
            remoteAddress: remoteAddress)
    }

    /// Makes a request from the target's bytes as they came off the wire.
    init(
        method: String, rawTarget: [UInt8], version: String, headers: HTTPHeaders, body: [UInt8],
        remoteAddress: String?
    ) {
        self.method = method
        self.target = String(decoding: rawTarget, as: UTF8.self)
        let (authority, origin) = TargetDecoder.originForm(of: rawTarget)
        self.authority = authority
        self.path = TargetDecoder.path(of: origin)
        self.query = TargetDecoder.query(of: origin)
        self.version = version
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
    }
}
