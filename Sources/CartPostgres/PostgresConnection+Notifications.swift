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
    /// Subscribes the session to `channel` (`LISTEN`): `NOTIFY`s on it from any session
    /// arrive through `waitForNotification(timeout:)` once their transaction commits.
    ///
    /// A channel is an identifier, which SQL cannot take as a parameter: libpq quotes it.
    ///
    /// - Throws: `PostgresError` when the server refuses or the connection is lost.
    public func listen(_ channel: String) throws {
        try executeScript("LISTEN " + quotedIdentifier(channel))
        channels.insert(channel)
    }

    /// Ends the subscription to `channel` (`UNLISTEN`).
    ///
    /// - Throws: `PostgresError` when the server refuses or the connection is lost.
    public func unlisten(_ channel: String) throws {
        try executeScript("UNLISTEN " + quotedIdentifier(channel))
        channels.remove(channel)
    }

    /// Whether the session listens to any channel.
    public var isListening: Bool { !channels.isEmpty }

    /// Sends `payload` to the sessions listening to `channel` (`pg_notify`), when the current
    /// transaction commits.
    ///
    /// - Throws: `PostgresError` when the server refuses (a payload of 8000 bytes or more)
    ///   or the connection is lost.
    public func notify(_ channel: String, payload: String = "") throws {
        try execute("SELECT pg_notify($1, $2)", [.text(channel), .text(payload)])
    }

    /// The next notification for a channel the session listens to, waiting for one up to
    /// `timeout`; `nil` when none came in time. Blocks the calling thread.
    ///
    /// - Throws: `PostgresError` of kind `.connection` when the connection is lost while
    ///   waiting.
    public func waitForNotification(timeout: Duration) throws -> PostgresNotification? {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            if let notification = nextNotification() { return notification }
            let remaining = clock.now.duration(to: deadline)
            guard remaining > .zero else { return nil }
            try checkUsable(sql: nil)
            var descriptor = pollfd(fd: cart_PQsocket(handle), events: Int16(POLLIN), revents: 0)
            guard descriptor.fd >= 0 else { throw lostConnection(sql: nil) }
            let ready = poll(&descriptor, 1, Int32(clamping: remaining.roundedUpMilliseconds))
            if ready < 0 {
                if errno == EINTR { continue }
                throw PostgresError(kind: .connection, message: "waiting for a notification failed: \(String(cString: strerror(errno)))")
            }
            if ready > 0, cart_PQconsumeInput(handle) != 1 { throw lostConnection(sql: nil) }
        }
    }

    /// Whether the connection is still open, found out without a round trip: input the
    /// server sent while the connection sat idle (the message and end of a session it
    /// terminated) is read, and a closed socket marks the connection lost. Notifications that
    /// arrived wait for `waitForNotification(timeout:)`.
    public func checkStillOpen() -> Bool {
        // A terminated session takes two reads: its last message, then the end of the
        // stream. A few rounds see both without spinning on a server that keeps sending.
        for _ in 0..<4 {
            guard isOpen else { return false }
            var descriptor = pollfd(fd: cart_PQsocket(handle), events: Int16(POLLIN), revents: 0)
            guard descriptor.fd >= 0, poll(&descriptor, 1, 0) > 0 else { break }
            _ = cart_PQconsumeInput(handle)
        }
        return isOpen
    }

    /// A notification libpq has already read, if any.
    private func nextNotification() -> PostgresNotification? {
        guard let notify = cart_PQnotifies(handle) else { return nil }
        defer { cart_PQfreemem(notify) }
        return PostgresNotification(
            channel: String(cString: notify.pointee.relname), payload: String(cString: notify.pointee.extra),
            processID: notify.pointee.be_pid)
    }

    /// `identifier` quoted for SQL by libpq (`"cart events"`).
    private func quotedIdentifier(_ identifier: String) throws -> String {
        guard !identifier.utf8.contains(0) else {
            throw PostgresError(kind: .invalidArgument, message: "the channel name contains a NUL character")
        }
        guard let quoted = cart_PQescapeIdentifier(handle, identifier, identifier.utf8.count) else {
            throw PostgresError(
                kind: .invalidArgument,
                message: "the channel name cannot be quoted: \(location.scrub(String(cString: cart_PQerrorMessage(handle))))")
        }
        defer { cart_PQfreemem(quoted) }
        return String(cString: quoted)
    }
}
