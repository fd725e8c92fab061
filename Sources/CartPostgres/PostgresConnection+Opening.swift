import CLibpq
import CLibpqLoader

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension PostgresConnection {
    /// Opens a libpq connection with `parameters` (keywords and values for
    /// `PQconnectStartParams`, with `expand_dbname`) and waits for the server to accept the
    /// session, as `PQconnectdbParams` would, except that no notice reaches libpq's default
    /// receiver, which prints it on stderr. A server that ends the session just after
    /// authentication (`pg_terminate_backend`) sends its FATAL error while the connection is
    /// idle, and libpq hands that error to the notice receiver: so the receiver here is set
    /// before libpq reads a byte, and drops what it gets, since nothing can yet have asked for
    /// the connection's notices. The session is then gone, and its first request says so.
    ///
    /// `connect_timeout` counts as in libpq's own blocking connect: per address tried, its
    /// clock starting again when libpq moves to another address. When it runs out, the socket
    /// is shut down, so that libpq gives up on that address: still waiting for the TCP
    /// connection, libpq goes on to the next address; once the server has accepted it, libpq
    /// ends the attempt (its public API cannot move it on from there). The reason given for an
    /// address whose time ran out is libpq's own, `timeout expired`.
    ///
    /// A location that lists several hosts (`postgresql://a,b/shop`) is a failover list: a
    /// host that accepts the connection and then hangs must not end the attempt. Its
    /// connection is made by libpq's own blocking connect (`PQreset`, which keeps the receiver
    /// set here), whose failover is exactly libpq's, at the cost of the connection
    /// `PQconnectStartParams` began: over TCP it is closed before the server reads a byte of
    /// it; to a Unix socket, which connects at once, libpq has sent its startup packet, so the
    /// server has started a session, which it sees end.
    ///
    /// - Returns: the connection's handle, its session ready for statements.
    /// - Throws: `PostgresError` of kind `.connection` with libpq's reason.
    static func open(_ parameters: [(keyword: String, value: String)], location: PostgresLocation) throws -> OpaquePointer {
        let handle = withCStrings(parameters.map(\.keyword) + [nil]) { keywords in
            withCStrings(parameters.map(\.value) + [nil]) { values in cart_PQconnectStartParams(keywords, values, 1) }
        }
        guard let handle else {
            throw PostgresError(kind: .connection, message: PostgresError.couldNotConnect + "\(location): out of memory")
        }
        cart_PQsetNoticeReceiver(handle, dropNotice, nil)
        let failure: String?
        if cart_PQstatus(handle) == CONNECTION_BAD {
            // Settings libpq refuses before it connects (three ports for two hosts): its reason,
            // which `PQreset` would clear.
            failure = String(cString: cart_PQerrorMessage(handle))
        } else if listsSeveralHosts(handle) {
            cart_PQreset(handle)
            failure = cart_PQstatus(handle) == CONNECTION_OK ? nil : String(cString: cart_PQerrorMessage(handle))
        } else {
            failure = completeStartup(handle)
        }
        if let failure {
            cart_PQfinish(handle)
            throw connectionFailure(location: location, clientMessage: failure)
        }
        return handle
    }

    /// Drives libpq's startup of `handle` (`PQconnectPoll`) until the session is ready or
    /// libpq gives up, waiting on its socket for what it asks and applying `connect_timeout`.
    ///
    /// - Returns: `nil` once the session is ready, or why it could not be opened, in libpq's
    ///   words (`PQerrorMessage`).
    private static func completeStartup(_ handle: OpaquePointer) -> String? {
        func libpqMessage() -> String { String(cString: cart_PQerrorMessage(handle)) }
        let timeout: Duration?
        switch connectTimeout(of: handle) {
        case .success(let value): timeout = value
        case .failure(let invalid): return libpqMessage() + invalid.reason
        }
        var address = currentAddress(of: handle)
        var deadline = timeout.map { ContinuousClock.now + $0 }
        // libpq's message as it stood each time the clock ran out on an address: up to the
        // reason for that address, which libpq has yet to give.
        var timedOut: [String] = []
        var state = PGRES_POLLING_WRITING
        while true {
            switch state {
            case PGRES_POLLING_OK:
                return nil
            case PGRES_POLLING_FAILED:
                return reportingTimeouts(libpqMessage(), after: timedOut)
            case PGRES_POLLING_READING, PGRES_POLLING_WRITING:
                let tried = currentAddress(of: handle)
                if tried != address {
                    address = tried
                    deadline = timeout.map { ContinuousClock.now + $0 }
                }
                let socket = cart_PQsocket(handle)
                switch wait(on: socket, reading: state == PGRES_POLLING_READING, until: deadline) {
                case .ready:
                    break
                case .timedOut:
                    timedOut.append(libpqMessage())
                    shutdown(socket, Int32(SHUT_RDWR))
                case .failed(let reason):
                    return libpqMessage() + reason
                }
            default:
                // PGRES_POLLING_ACTIVE, which libpq no longer returns: poll again at once.
                break
            }
            state = cart_PQconnectPoll(handle)
        }
    }

    /// libpq's `message` with the reason it gives for each address whose time ran out (what
    /// follows one of `prefixes`: a line and the tab-indented lines under it) replaced by the
    /// reason its own wait gives, `timeout expired`, instead of what it made of the socket
    /// shut down under it (`Connection reset by peer`, `server closed the connection`).
    private static func reportingTimeouts(_ message: String, after prefixes: [String]) -> String {
        var message = message
        for prefix in prefixes.reversed() where message.hasPrefix(prefix) {
            func droppingLine(_ text: Substring) -> Substring { text.drop { $0 != "\n" }.dropFirst() }
            var rest = droppingLine(message.dropFirst(prefix.count))
            while rest.hasPrefix("\t") { rest = droppingLine(rest) }
            message = prefix + "timeout expired\n" + rest
        }
        return message
    }

    /// The host, port and network address libpq is trying on `handle` (`PQhost`, `PQport`,
    /// `PQhostaddr`): another value means libpq moved on to another address. Only for a
    /// handle whose startup has begun.
    private static func currentAddress(of handle: OpaquePointer) -> [String] {
        [cart_PQhost(handle), cart_PQport(handle), cart_PQhostaddr(handle)].map { $0.map { String(cString: $0) } ?? "" }
    }

    /// Whether the handle's settings (the location, then `PGHOST` and `PGHOSTADDR`) list more
    /// than one host or address to try.
    private static func listsSeveralHosts(_ handle: OpaquePointer) -> Bool {
        ["host", "hostaddr"].contains { setting(named: $0, of: handle)?.contains(",") == true }
    }

    /// The value of the connection setting `name` as libpq resolved it for `handle`; nil when
    /// it has none.
    private static func setting(named name: String, of handle: OpaquePointer) -> String? {
        guard let options = cart_PQconninfo(handle) else { return nil }
        defer { cart_PQconninfoFree(options) }
        var option = options
        while let keyword = option.pointee.keyword {
            if String(cString: keyword) == name { return option.pointee.val.map { String(cString: $0) } }
            option += 1
        }
        return nil
    }

    /// A `connect_timeout` libpq cannot read, with its words for it.
    private struct InvalidTimeout: Error {
        let reason: String
    }

    /// `connect_timeout` as libpq's blocking connect reads it, from the handle's settings
    /// (the location, then `PGCONNECT_TIMEOUT`): `nil` for none (unset, 0 or negative),
    /// and at least 2 seconds.
    private static func connectTimeout(of handle: OpaquePointer) -> Result<Duration?, InvalidTimeout> {
        guard let value = setting(named: "connect_timeout", of: handle) else { return .success(nil) }
        // As libpq reads it: an optionally signed decimal integer that fits an int, with
        // white space around it.
        let spaces: Set<Character> = [" ", "\t", "\n", "\u{0B}", "\u{0C}", "\r"]
        var number = Substring(value)
        while let first = number.first, spaces.contains(first) { number.removeFirst() }
        while let last = number.last, spaces.contains(last) { number.removeLast() }
        guard let seconds = Int32(number) else {
            return .failure(InvalidTimeout(reason: "invalid integer value \"\(value)\" for connection option \"connect_timeout\"\n"))
        }
        return .success(seconds > 0 ? .seconds(max(seconds, 2)) : nil)
    }

    /// How a wait on the socket during startup ended.
    private enum SocketWait {
        case ready
        case timedOut
        /// The wait itself failed, with the reason as a line of libpq's message.
        case failed(String)
    }

    /// Waits until `socket` can be read from (`reading`) or written to, at most until
    /// `deadline`. A wait to read ends at least every `socketWaitSlice`, as one for an answer
    /// does: libpq then reads again, whatever the socket says.
    private static func wait(on socket: Int32, reading: Bool, until deadline: ContinuousClock.Instant?) -> SocketWait {
        while true {
            var wait = reading ? socketWaitSlice : nil
            if let deadline {
                let remaining = ContinuousClock.now.duration(to: deadline)
                wait = min(wait ?? remaining, max(remaining, .zero))
            }
            var descriptor = pollfd(fd: socket, events: Int16(reading ? POLLIN : POLLOUT), revents: 0)
            let ready = poll(&descriptor, 1, wait.map { Int32(clamping: $0.roundedUpMilliseconds) } ?? -1)
            if ready > 0 { return .ready }
            if ready < 0 {
                guard errno == EINTR else { return .failed("poll() failed: \(String(cString: strerror(errno)))\n") }
                continue
            }
            if let deadline, ContinuousClock.now >= deadline { return .timedOut }
            if reading { return .ready }
        }
    }
}

/// A notice receiver that drops every notice: the one a connection has until it can hand
/// them to its `noticeHandler`.
private func dropNotice(_ context: UnsafeMutableRawPointer?, _ result: OpaquePointer?) {}
