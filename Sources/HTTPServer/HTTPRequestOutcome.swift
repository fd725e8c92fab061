/// How a request ended, as its access-log entry reports it.
public enum HTTPRequestOutcome: Sendable, Equatable, CustomStringConvertible {
    /// The response was sent in full.
    case completed
    /// The client closed the connection or an I/O error ended it before the response was
    /// sent in full.
    case clientGone
    /// The connection was idle for longer than the connection timeout.
    case timedOut
    /// The server stopped before the response was sent in full.
    case serverStopped
    /// The response could not be completed: a body producer failed, a stream was overrun.
    case failed
    /// The request was refused before it was whole and the connection closed: libmicrohttpd
    /// answered it itself (no `Host`, headers too large), or its body ran far over the limit.
    /// The entry has no status, as the server never saw libmicrohttpd's.
    case refused

    /// The word used in log lines.
    public var description: String {
        switch self {
        case .completed: "completed"
        case .clientGone: "client-gone"
        case .timedOut: "timed-out"
        case .serverStopped: "server-stopped"
        case .failed: "failed"
        case .refused: "refused"
        }
    }
}
