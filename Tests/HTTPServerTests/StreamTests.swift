import CartTestSupport
import Dispatch
@testable import HTTPServer
import Synchronization
import Testing

@Suite("Streams: Server-Sent Events written from other threads")
struct StreamTests {
    /// Hands each stream it serves to the test.
    final class StreamSource: Sendable {
        let streams = Recorder<HTTPStream>()
        let heartbeat: Bool

        init(heartbeat: Bool = true) {
            self.heartbeat = heartbeat
        }

        var handler: HTTPHandler {
            { request in
                let stream = self.heartbeat ? HTTPStream.serverSentEvents() : HTTPStream(maxQueuedBytes: 64 * 1024)
                self.streams.record(stream)
                return .eventStream(stream)
            }
        }

        /// The stream of the `index`th request, once its handler has run.
        func stream(_ index: Int = 0) -> HTTPStream? {
            for _ in 0..<500 {
                let all = streams.all
                if all.count > index { return all[index] }
                pause(milliseconds: 10)
            }
            return nil
        }
    }

    /// Reads chunks until `count` complete events (blank-line terminated) have arrived.
    func readEvents(_ connection: TestConnection, count: Int) throws -> [String] {
        var text = ""
        func events() -> [String] { text.split(separator: "\n\n").map(String.init) }
        while !(text.hasSuffix("\n\n") && events().count >= count) {
            guard let chunk = try connection.readChunk() else { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        return events()
    }

    @Test("events written from another thread arrive in order, and close ends the body cleanly")
    func events() throws {
        let source = StreamSource()
        let server = try startServer(handler: source.handler)
        defer { server.stop() }
        let connection = try TestConnection(port: server.port)
        connection.send(rawRequest("GET", "/v1/carts/x/events"))
        let head = try connection.readHead()
        #expect(head.status == 200)
        #expect(head.header("Content-Type") == "text/event-stream")
        #expect(head.header("Cache-Control") == "no-store")
        #expect(head.header("Transfer-Encoding") == "chunked")
        let stream = try #require(source.stream())
        let writer = DispatchQueue(label: "writer")
        writer.async {
            for index in 1...3 {
                pause(milliseconds: 50)
                stream.sendEvent("cart", data: "{\"version\":\(index)}\nsecond line", id: "\(index)")
            }
        }
        let events = try readEvents(connection, count: 3)
        #expect(
            events == (1...3).map { "event: cart\nid: \($0)\ndata: {\"version\":\($0)}\ndata: second line" })
        stream.close()
        #expect(try connection.readChunk() == nil)
        #expect(!stream.write("after close"))
        connection.send(rawRequest("GET", "/again"))
        #expect(try connection.readHead().status == 200)
    }

    @Test("an idle stream holds no thread: a one-thread server keeps answering other requests")
    func idleStreamHoldsNoThread() throws {
        let source = StreamSource()
        let server = try startServer({ $0.threads = 1 }) { request in
            request.target == "/events" ? source.handler(request) : .text("plain")
        }
        defer { server.stop() }
        let streams = try (0..<5).map { _ in try TestConnection(port: server.port) }
        for connection in streams {
            connection.send(rawRequest("GET", "/events"))
            #expect(try connection.readHead().status == 200)
        }
        let other = try TestConnection(port: server.port, timeout: 3)
        for _ in 0..<10 {
            other.send(rawRequest("GET", "/plain"))
            #expect(try other.readResponse().text == "plain")
        }
        for index in 0..<5 { source.stream(index)?.sendEvent(data: "\(index)") }
        for (index, connection) in streams.enumerated() {
            #expect(try readEvents(connection, count: 1) == ["data: \(index)"])
        }
    }

    @Test("heartbeats reach an idle client and find a gone one, which ends the stream")
    func heartbeat() throws {
        let source = StreamSource()
        let server = try startServer({ $0.streamHeartbeatInterval = .milliseconds(50) }, handler: source.handler)
        defer { server.stop() }
        var connection: TestConnection? = try TestConnection(port: server.port)
        connection?.send(rawRequest("GET", "/events"))
        #expect(try connection?.readHead().status == 200)
        #expect(try connection?.readChunk() == Array(":\n\n".utf8))
        let stream = try #require(source.stream())
        let closed = Atomic(false)
        stream.onClose { closed.store(true, ordering: .relaxed) }
        connection = nil
        for _ in 0..<200 where !closed.load(ordering: .relaxed) { pause(milliseconds: 10) }
        let ended = closed.load(ordering: .relaxed)
        #expect(ended)
        #expect(stream.isClosed)
        #expect(!stream.sendEvent(data: "nobody listens"))
    }

    @Test("a client gone from its stream is logged as client-gone and leaves the error log empty")
    func goneClientIsNoError() throws {
        let source = StreamSource()
        let messages = Recorder<String>()
        let log = Recorder<HTTPAccessLogEntry>()
        let server = try startServer(
            {
                $0.streamHeartbeatInterval = .milliseconds(50)
                $0.errorLog = { messages.record($0) }
                $0.accessLog = { log.record($0) }
            }, handler: source.handler)
        defer { server.stop() }
        var connection: TestConnection? = try TestConnection(port: server.port)
        connection?.send(rawRequest("GET", "/events"))
        #expect(try connection?.readHead().status == 200)
        connection = nil
        for _ in 0..<300 where log.all.isEmpty { pause(milliseconds: 10) }
        #expect(log.all.map(\.outcome) == [.clientGone])
        #expect(messages.all.isEmpty, "\(messages.all)")
    }

    @Test("a stream overrun by a client that reads nothing ends at the connection timeout, logged as failed")
    func overrunUnread() throws {
        let streams = Recorder<HTTPStream>()
        let log = Recorder<HTTPAccessLogEntry>()
        let server = try startServer(
            {
                $0.connectionTimeout = .seconds(1)
                $0.streamHeartbeatInterval = nil
                $0.accessLog = { log.record($0) }
            },
            handler: { _ in
                let stream = HTTPStream(maxQueuedBytes: 64 << 10)
                streams.record(stream)
                return .eventStream(stream)
            })
        defer { server.stop() }
        let connection = try TestConnection(port: server.port, timeout: 10)
        connection.send(rawRequest("GET", "/events"))
        for _ in 0..<300 where streams.all.isEmpty { pause(milliseconds: 10) }
        let stream = try #require(streams.all.first)
        // The socket's buffers fill, then the stream's queue, until a write is refused.
        let block = [UInt8](repeating: UInt8(ascii: "x"), count: 32 << 10)
        var writes = 0
        while stream.write(block), writes < 10_000 {
            writes += 1
            pause(milliseconds: 2)
        }
        #expect(stream.isClosed)
        for _ in 0..<500 where log.all.isEmpty { pause(milliseconds: 10) }
        #expect(log.all.map(\.outcome) == [.failed])
    }

    @Test("a client that keeps a little behind gets every byte in order, as the sent ones are let go")
    func laggingReader() {
        let stream = HTTPStream(maxQueuedBytes: 1 << 20)
        var written: [UInt8] = []
        var received: [UInt8] = []
        var buffer = [CChar](repeating: 0, count: 20_000)
        // Each round writes 24 KiB and reads 20 KB: the queue never empties.
        for round in 0..<40 {
            let bytes = (0..<24_576).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ round) }
            #expect(stream.write(bytes))
            written += bytes
            let count = buffer.withUnsafeMutableBufferPointer { stream.read(into: $0.baseAddress!, capacity: $0.count) }
            received += buffer[..<count].map { UInt8(bitPattern: $0) }
        }
        stream.close()
        while true {
            let count = buffer.withUnsafeMutableBufferPointer { stream.read(into: $0.baseAddress!, capacity: $0.count) }
            guard count > 0 else { break }
            received += buffer[..<count].map { UInt8(bitPattern: $0) }
        }
        #expect(received == written)
    }

    @Test("a write larger than the queue's limit goes to a client that keeps up; one behind by the limit is refused")
    func largeWrite() {
        let stream = HTTPStream(maxQueuedBytes: 1 << 10)
        #expect(stream.write("retry: 1000\n\n"))
        let large = [UInt8](repeating: UInt8(ascii: "x"), count: 3 << 10)
        #expect(stream.write(large))
        var buffer = [CChar](repeating: 0, count: 8 << 10)
        let count = buffer.withUnsafeMutableBufferPointer { stream.read(into: $0.baseAddress!, capacity: $0.count) }
        #expect(count == 13 + large.count)
        #expect(stream.write(large))
        #expect(!stream.write("more"))
        #expect(stream.isClosed)
    }

    @Test("a client that does not read loses its stream once too much is queued")
    func overrun() throws {
        let source = StreamSource(heartbeat: false)
        let log = Recorder<HTTPAccessLogEntry>()
        let server = try startServer({ $0.accessLog = { log.record($0) } }, handler: source.handler)
        defer { server.stop() }
        let connection = try TestConnection(port: server.port)
        connection.send(rawRequest("GET", "/events"))
        #expect(try connection.readHead().status == 200)
        let stream = try #require(source.stream())
        let event = String(repeating: "x", count: 1000)
        var written = 0
        while stream.sendEvent(data: event), written < 100_000 { written += 1 }
        #expect(stream.isClosed)
        #expect(written < 100_000)
        _ = connection.readUntilClosed()
        for _ in 0..<200 where log.all.isEmpty { pause(milliseconds: 10) }
        #expect(log.all.first?.outcome == .failed)
    }

    @Test("event names and ids with line breaks are refused; data lines are split")
    func eventFields() throws {
        let source = StreamSource()
        let server = try startServer(handler: source.handler)
        defer { server.stop() }
        let connection = try TestConnection(port: server.port)
        connection.send(rawRequest("GET", "/events"))
        _ = try connection.readHead()
        let stream = try #require(source.stream())
        #expect(!stream.sendEvent("cart\ndata: forged", data: "x"))
        #expect(!stream.sendEvent("cart", data: "x", id: "1\r\nevent: forged"))
        #expect(!stream.sendComment("a\nb"))
        #expect(stream.sendEvent(data: "a\r\nb\rc\nd"))
        #expect(try readEvents(connection, count: 1) == ["data: a\ndata: b\ndata: c\ndata: d"])
    }

    @Test("a stream given to two responses serves the first and refuses the second")
    func streamReused() throws {
        let shared = HTTPStream()
        let server = try startServer { _ in .eventStream(shared) }
        defer { server.stop() }
        let first = try TestConnection(port: server.port)
        first.send(rawRequest("GET", "/"))
        #expect(try first.readHead().status == 200)
        let second = try TestConnection(port: server.port)
        second.send(rawRequest("GET", "/"))
        #expect(try second.readResponse().status == 500)
        shared.close()
        #expect(try first.readChunk() == nil)
    }
}
