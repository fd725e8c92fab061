import CMicroHTTPD
import CMicroHTTPDLoader
import Synchronization

/// A response body that other threads write to over time, for Server-Sent Events.
///
/// The handler returns it in an ``HTTPResponse`` (``HTTPResponse/eventStream(_:headers:)``)
/// and keeps a reference; any thread then calls ``write(_:)-([UInt8])`` and finally
/// ``close()``. Bytes go out as HTTP chunks in the order written. While nothing is queued the
/// connection is suspended in libmicrohttpd, so an idle stream holds no server thread; a
/// write resumes it. ``close()`` sends what is queued, then the final chunk, so the client
/// sees a clean end.
///
/// A suspended connection does not notice that its client went away. A stream made with a
/// `heartbeat` has those bytes written by the server every
/// ``HTTPServerConfiguration/streamHeartbeatInterval``, and a write to a gone client fails
/// and ends the stream. A client that reads slower than the stream is written loses it: a
/// write that finds `maxQueuedBytes` or more waiting to be sent ends the stream with an error
/// (the connection closes), and an event-stream client reconnects and starts afresh. One
/// write may be larger than the limit: a stream holds at most the limit and one write more.
///
/// ```swift
/// let stream = HTTPStream.serverSentEvents()
/// subscribers.add(stream)                      // the app's own list
/// stream.onClose { subscribers.remove(stream) }
/// return .eventStream(stream)
/// // later, on another thread:
/// stream.sendEvent("cart", data: json)
/// ```
public final class HTTPStream: Sendable {
    /// The bytes written by the server as a keep-alive, if any.
    let heartbeat: [UInt8]?
    private let maxQueuedBytes: Int
    /// The queue room a stream keeps between writes, and the most sent bytes it keeps.
    private static let keptCapacity = 64 << 10
    private let state = Mutex(State())

    private struct State: ~Copyable {
        var queued: [UInt8] = []
        /// How many bytes at the front of `queued` were already handed to libmicrohttpd.
        var sent = 0
        var closed = false
        var failed = false
        var attached = false
        var suspended = false
        /// The connection while its request lasts; libmicrohttpd frees it afterwards.
        var connection: MHDHandle?
        var closeActions: [@Sendable () -> Void] = []
    }

    /// Makes a stream that refuses a write once `maxQueuedBytes` wait unsent, and whose keep-alive
    /// bytes, if any, are `heartbeat`.
    public init(heartbeat: [UInt8]? = nil, maxQueuedBytes: Int = 1 << 20) {
        self.heartbeat = heartbeat
        self.maxQueuedBytes = maxQueuedBytes
    }

    /// A stream for `text/event-stream`, whose keep-alive is the comment line `:`.
    public static func serverSentEvents(maxQueuedBytes: Int = 1 << 20) -> HTTPStream {
        HTTPStream(heartbeat: Array(":\n\n".utf8), maxQueuedBytes: maxQueuedBytes)
    }

    /// Queues bytes to send; returns false, queuing nothing, once the stream has ended.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        let (accepted, actions) = state.withLock { state -> (Bool, [@Sendable () -> Void]) in
            guard !state.closed else { return (false, []) }
            // The limit is on what already waits: a write larger than the limit still goes to
            // a client that keeps up.
            guard state.queued.count - state.sent < maxQueuedBytes else {
                state.failed = true
                // A failed stream sends nothing more; the memory goes now, not when a client
                // that reads nothing lets libmicrohttpd ask for more.
                state.queued = []
                state.sent = 0
                return (false, Self.end(&state))
            }
            state.queued.append(contentsOf: bytes)
            Self.wake(&state)
            return (true, [])
        }
        actions.forEach { $0() }
        return accepted
    }

    /// Queues the UTF-8 bytes of `text`; returns false once the stream has ended.
    @discardableResult
    public func write(_ text: String) -> Bool {
        write(Array(text.utf8))
    }

    /// Ends the stream: what is queued is still sent, then the final chunk. Later writes
    /// return false; calling it again does nothing.
    public func close() {
        let actions = state.withLock { state in Self.end(&state) }
        actions.forEach { $0() }
    }

    /// Whether the stream has ended: closed, its client gone, its server stopped, or
    /// overrun by a slow client.
    public var isClosed: Bool {
        state.withLock { $0.closed }
    }

    /// Runs `action` once when the stream ends for any reason, on the thread that ends it
    /// (at once if it has already ended). The action must not block.
    public func onClose(_ action: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state in
            if state.closed { return true }
            state.closeActions.append(action)
            return false
        }
        if runNow { action() }
    }

    /// Whether the stream ended because a slow client let too much queue up.
    var overran: Bool {
        state.withLock { $0.failed }
    }

    /// Binds the stream to the connection whose response it is; false when another response
    /// already uses it.
    func attach(to connection: OpaquePointer) -> Bool {
        let handle = MHDHandle(pointer: connection)
        return state.withLock { state in
            guard !state.attached else { return false }
            state.attached = true
            state.connection = state.closed ? nil : handle
            return true
        }
    }

    /// libmicrohttpd's content reader: copies up to `capacity` queued bytes into `buffer`.
    /// With nothing queued it suspends the connection and returns 0; libmicrohttpd asks
    /// again once ``write(_:)-([UInt8])`` or ``close()`` resumes it.
    func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        state.withLock { state in
            if state.failed { return cart_mhd_end_with_error() }
            let pending = state.queued.count - state.sent
            if pending > 0 {
                let count = min(pending, capacity)
                let start = state.sent
                state.queued.withUnsafeBytes { bytes in
                    UnsafeMutableRawBufferPointer(start: buffer, count: count)
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[start..<(start + count)]))
                }
                state.sent += count
                if state.sent == state.queued.count {
                    // Room for the usual events stays; that of a burst goes with it.
                    state.queued.removeAll(keepingCapacity: state.queued.capacity <= Self.keptCapacity)
                    state.sent = 0
                } else if state.sent >= Self.keptCapacity {
                    // A client that keeps a little behind never empties the queue: what it has
                    // been sent goes, or the queue would hold everything ever written.
                    state.queued.removeFirst(state.sent)
                    state.sent = 0
                }
                return count
            }
            guard !state.closed, let connection = state.connection else { return cart_mhd_end_of_stream() }
            state.suspended = true
            cart_MHD_suspend_connection(connection.pointer)
            return 0
        }
    }

    /// Ends the stream when its request is over (sent, failed, or the server stopped), and
    /// forgets the connection, which libmicrohttpd frees.
    func finish() {
        let actions = state.withLock { state in
            state.connection = nil
            state.suspended = false
            return Self.end(&state)
        }
        actions.forEach { $0() }
    }

    /// Marks the stream ended and wakes its connection so the end is sent; returns the close
    /// actions to run, outside the lock, the first time only.
    private static func end(_ state: inout State) -> [@Sendable () -> Void] {
        guard !state.closed else { return [] }
        state.closed = true
        wake(&state)
        defer { state.closeActions = [] }
        return state.closeActions
    }

    /// Resumes the connection if the content reader suspended it. A connection is only
    /// resumed after it was suspended, as libmicrohttpd requires.
    private static func wake(_ state: inout State) {
        guard state.suspended, let connection = state.connection else { return }
        state.suspended = false
        cart_MHD_resume_connection(connection.pointer)
    }
}
