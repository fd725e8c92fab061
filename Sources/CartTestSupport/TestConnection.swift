import Glibc

/// A blocking TCP client speaking raw HTTP/1.1, so tests can send anything, hostile or not.
package final class TestConnection {
    /// Why the client gave up.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String

        /// A failure saying `description`.
        package init(description: String) {
            self.description = description
        }
    }

    private let socket: Int32
    private var buffer: [UInt8] = []
    /// How the last read that got nothing ended, for failure messages.
    private var ending = "the connection ended"

    /// Connects to 127.0.0.1:`port`; reads give up after `timeout` seconds.
    package init(port: UInt16, timeout: Int = 10) throws {
        // Kept in a local until it is connected: once `self.socket` is set, a throw runs
        // `deinit`, whose close would come on top of the one here and could close a descriptor
        // another thread has just been given the same number for.
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket failed") }
        var limit = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            Glibc.close(socket)
            throw Failure(description: "connect failed: errno \(code)")
        }
        self.socket = socket
    }

    deinit {
        Glibc.close(socket)
    }

    /// Sends bytes; false when the peer has gone.
    @discardableResult
    package func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if count <= 0 { return false }
            sent += count
        }
        return true
    }

    /// Sends the UTF-8 bytes of `text`.
    @discardableResult
    package func send(_ text: String) -> Bool {
        send(Array(text.utf8))
    }

    /// Shuts the sending side, as a client that has said everything does.
    package func finishSending() {
        shutdown(socket, Int32(SHUT_WR))
    }

    /// Reads a response head: status and header fields.
    package func readHead() throws -> TestResponse {
        let head = try readLine()
        let parts = head.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let status = Int(parts[1]) else {
            throw Failure(description: "bad status line: \(head.debugDescription)")
        }
        var headers: [(String, String)] = []
        while true {
            let line = try readLine()
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { throw Failure(description: "bad header line: \(line)") }
            headers.append(
                (String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingSpaces()))
        }
        return TestResponse(status: status, headers: headers, body: [])
    }

    /// Reads a whole response; `head` says whether a body follows (not for HEAD).
    package func readResponse(bodyExpected: Bool = true) throws -> TestResponse {
        var response = try readHead()
        if response.status == 100 { return try readResponse(bodyExpected: bodyExpected) }
        guard bodyExpected, response.status != 204, response.status != 304 else { return response }
        if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            while let chunk = try readChunk() { response.body += chunk }
        } else if let length = response.header("Content-Length").flatMap({ Int($0) }) {
            response.body = try readBytes(length)
        } else {
            response.body = readUntilClosed()
        }
        return response
    }

    /// Reads one chunk of a chunked body; nil at the final chunk.
    package func readChunk() throws -> [UInt8]? {
        let sizeLine = try readLine()
        guard let size = Int(sizeLine.prefix { $0 != ";" }, radix: 16) else {
            throw Failure(description: "bad chunk size line: \(sizeLine.debugDescription)")
        }
        if size == 0 {
            while try !readLine().isEmpty {}
            return nil
        }
        let data = try readBytes(size)
        guard try readLine().isEmpty else { throw Failure(description: "chunk not followed by CRLF") }
        return data
    }

    /// Reads until the peer closes the connection (or the read times out).
    package func readUntilClosed() -> [UInt8] {
        while fill() {}
        defer { buffer = [] }
        return buffer
    }

    /// Whether the peer closes the connection, discarding anything it still sends, before
    /// the read timeout.
    package func peerClosed() -> Bool {
        buffer = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }

    /// Whether nothing arrives, and the connection stays open, for `milliseconds`.
    package func staysQuiet(milliseconds: Int) -> Bool {
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, Int32(milliseconds)) == 0
    }

    private func readLine() throws -> String {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                var line = Array(buffer[..<newline])
                buffer.removeFirst(newline + 1)
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            guard fill() else {
                throw Failure(description: "\(ending) in the middle of a line, after \(String(decoding: buffer, as: UTF8.self).debugDescription)")
            }
        }
    }

    private func readBytes(_ count: Int) throws -> [UInt8] {
        while buffer.count < count {
            guard fill() else { throw Failure(description: "\(ending) after \(buffer.count) of \(count) bytes") }
        }
        defer { buffer.removeFirst(count) }
        return Array(buffer[..<count])
    }

    /// Reads what is available into the buffer; false at the end or on a timeout, which
    /// `ending` then names.
    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        guard count > 0 else {
            ending =
                count == 0 ? "the peer closed the connection"
                : errno == EAGAIN || errno == EWOULDBLOCK ? "the read timed out" : "the read failed (errno \(errno))"
            return false
        }
        buffer += chunk[..<count]
        return true
    }
}
