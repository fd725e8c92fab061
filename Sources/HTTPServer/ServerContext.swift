import CMicroHTTPD
import CMicroHTTPDLoader
import Dispatch
import Synchronization

/// The state libmicrohttpd's callbacks reach through their closure pointer: the handler, the
/// limits, the open streams, and the count of requests in flight that ``stop(deadline:)``
/// waits for.
final class ServerContext: Sendable {
    let configuration: HTTPServerConfiguration
    let handler: HTTPHandler
    /// Entered when a request's headers are whole, left when the request completes.
    let inFlight = DispatchGroup()
    /// Set when stopping begins: responses then carry `Connection: close`.
    let stopping = Atomic(false)
    /// What libmicrohttpd logged while starting, held back from the error log: the last one
    /// is the reason in the error when it cannot start, and all of them go to the log once it
    /// has started. `nil` once started.
    private let startMessages = Mutex<[String]?>([])
    private let streams = Mutex(Streams())
    private let lifecycle = Mutex(Lifecycle())

    private struct Streams: ~Copyable {
        var open: [ObjectIdentifier: HTTPStream] = [:]
        var closing = false
    }

    private struct Lifecycle: ~Copyable {
        var daemon: MHDHandle?
        var heartbeat: (any DispatchSourceTimer)?
        /// The reference libmicrohttpd's callbacks hold, released once it has stopped.
        var callbackReference: Unmanaged<ServerContext>?
        /// Whether everything in flight finished in time, once stopped.
        var drained: Bool?
    }

    init(configuration: HTTPServerConfiguration, handler: @escaping HTTPHandler) {
        self.configuration = configuration
        self.handler = handler
    }

    /// Passes a message to the configured error log, or holds it back while starting.
    func log(_ message: String) {
        let heldBack = startMessages.withLock { messages in
            messages?.append(message)
            return messages != nil
        }
        if !heldBack { configuration.errorLog?(message) }
    }

    /// The last message libmicrohttpd logged while failing to start, if any.
    var startFailure: String? {
        startMessages.withLock { $0?.last }
    }

    /// Records the running daemon and the reference its callbacks hold, and starts the
    /// heartbeat timer.
    func started(_ daemon: OpaquePointer, releasing callbackReference: Unmanaged<ServerContext>) {
        let held = startMessages.withLock { messages in
            defer { messages = nil }
            return messages ?? []
        }
        for message in held { configuration.errorLog?(message) }
        let handle = MHDHandle(pointer: daemon)
        lifecycle.withLock { state in
            state.daemon = handle
            state.callbackReference = callbackReference
            if let interval = configuration.streamHeartbeatInterval {
                let nanoseconds = interval.clampedNanoseconds
                // A queue of its own gets a thread even when the global queues are busy.
                let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "HTTPServer.heartbeat"))
                timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds))
                timer.setEventHandler { [weak self] in self?.sendHeartbeats() }
                timer.resume()
                state.heartbeat = timer
            }
        }
    }

    /// Adds a stream that a queued response sends; a stream added once stopping has begun
    /// is closed at once.
    func register(_ stream: HTTPStream) {
        let closeNow = streams.withLock { streams in
            streams.open[ObjectIdentifier(stream)] = stream
            return streams.closing
        }
        if closeNow { stream.close() }
    }

    /// Forgets a stream whose request is over.
    func unregister(_ stream: HTTPStream) {
        _ = streams.withLock { $0.open.removeValue(forKey: ObjectIdentifier(stream)) }
    }

    private func sendHeartbeats() {
        let open = streams.withLock { Array($0.open.values) }
        for stream in open {
            if let heartbeat = stream.heartbeat { stream.write(heartbeat) }
        }
    }

    /// Stops the server gracefully, once: stops taking connections, ends the open streams,
    /// waits up to `deadline` for requests in flight, then stops libmicrohttpd, which closes
    /// what is left and the listening socket. A later call waits for the first to finish.
    /// Returns whether everything in flight finished before the deadline.
    ///
    /// From the moment `stopping` is set, the accept policy closes each new connection.
    /// `MHD_quiesce_daemon` is not used: with epoll and a thread pool it races with the
    /// workers taking the listening socket out of their epoll sets themselves, and the loser
    /// aborts the process ("Failed to remove listen FD from epoll set").
    func stop(deadline: Duration) -> Bool {
        lifecycle.withLock { state in
            if let drained = state.drained { return drained }
            guard let daemon = state.daemon else { return true }
            stopping.store(true, ordering: .sequentiallyConsistent)
            state.heartbeat?.cancel()
            let open = streams.withLock { streams in
                streams.closing = true
                return Array(streams.open.values)
            }
            open.forEach { $0.close() }
            let drained = inFlight.wait(timeout: .now() + .nanoseconds(deadline.clampedNanoseconds)) == .success
            cart_MHD_stop_daemon(daemon.pointer)
            state.daemon = nil
            state.callbackReference?.release()
            state.callbackReference = nil
            state.drained = drained
            return drained
        }
    }
}
