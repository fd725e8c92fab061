/// The body of an ``HTTPResponse``.
public enum HTTPBody {
    /// A body known in full, sent with `Content-Length`.
    case bytes([UInt8])
    /// A body other threads write over time (Server-Sent Events), sent chunked. The
    /// connection is parked, holding no thread, while nothing is queued.
    case stream(HTTPStream)
    /// A body produced piece by piece on the server's thread whenever the client can take
    /// more (a large export read row by row), sent chunked. The closure returns the next
    /// piece, or `nil` at the end; when it throws, the connection is closed without the final
    /// chunk, so the client sees the body is incomplete. The closure runs on one server
    /// thread at a time, never concurrently.
    case chunks(() throws -> [UInt8]?)
}
