/// What the server keeps about one request between libmicrohttpd's callbacks.
///
/// It is made in the URI-log callback, reached through libmicrohttpd's per-request pointer,
/// and released in the completion callback. libmicrohttpd calls all three on the thread that
/// owns the connection, so it is never used by two threads at once.
final class RequestContext {
    let start: ContinuousClock.Instant
    /// The request target exactly as received.
    let target: [UInt8]
    var method = ""
    var version = ""
    /// Set on the first access-handler call, once the headers are in.
    var headers: HTTPHeaders?
    var remoteAddress: String?
    var body: [UInt8] = []
    /// Body bytes received, kept or not.
    var received = 0
    /// Whether the body outgrew the limit; the rest of it is read and dropped.
    var bodyTooLarge = false
    /// The status queued, if the server or application answered.
    var status: Int?
    /// The stream the response sends, if any.
    var stream: HTTPStream?
    /// Whether the response body failed (a producer threw, a stream was overrun).
    var failed = false
    /// Whether the request counts in flight, which a graceful stop waits for: from the moment
    /// its headers are whole.
    var inFlight = false

    init(target: [UInt8], start: ContinuousClock.Instant) {
        self.target = target
        self.start = start
    }
}
