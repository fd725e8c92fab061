/// The application's answer to an ``HTTPRequest``.
///
/// The server writes `Content-Length` or the chunked framing, `Date` and `Connection`
/// itself; a response that sets `Content-Length` or `Transfer-Encoding`, has a header that
/// is not valid HTTP (a CR or LF in a value, say), or a status outside 200...599, is refused:
/// the client gets a 500 instead and the error log says why.
public struct HTTPResponse {
    /// The status code, such as 200.
    public var status: Int
    /// The header fields to send.
    public var headers: HTTPHeaders
    /// The body to send.
    public var body: HTTPBody

    /// Makes a response.
    public init(status: Int, headers: HTTPHeaders = [:], body: HTTPBody = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response with a JSON body, `Content-Type: application/json`.
    public static func json(_ bytes: [UInt8], status: Int = 200, headers: consuming HTTPHeaders = [:]) -> HTTPResponse {
        headers.set("Content-Type", "application/json")
        return HTTPResponse(status: status, headers: headers, body: .bytes(bytes))
    }

    /// A response with a plain-text body, `Content-Type: text/plain; charset=utf-8`.
    public static func text(_ text: String, status: Int = 200, headers: consuming HTTPHeaders = [:]) -> HTTPResponse {
        headers.set("Content-Type", "text/plain; charset=utf-8")
        return HTTPResponse(status: status, headers: headers, body: .bytes(Array(text.utf8)))
    }

    /// A 200 response streaming Server-Sent Events from `stream`, with
    /// `Content-Type: text/event-stream`, `Cache-Control: no-store` and
    /// `X-Accel-Buffering: no`, which tells a proxy in front (nginx) to pass each event on
    /// as it comes rather than hold it until its buffer fills.
    public static func eventStream(_ stream: HTTPStream, headers: consuming HTTPHeaders = [:]) -> HTTPResponse {
        headers.set("Content-Type", "text/event-stream")
        headers.set("Cache-Control", "no-store")
        headers.set("X-Accel-Buffering", "no")
        return HTTPResponse(status: 200, headers: headers, body: .stream(stream))
    }
}
