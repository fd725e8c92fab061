import CartTestSupport
import HTTPServer
import Synchronization
import Testing

@Suite("Request bodies and their limit")
struct BodyTests {
    /// Answers with the body's length; counts its calls.
    final class LengthHandler: Sendable {
        let calls = Atomic(0)

        var handler: HTTPHandler {
            { request in
                self.calls.add(1, ordering: .relaxed)
                return .text("\(request.body.count)")
            }
        }
    }

    static let twoMiB = 2 << 20

    @Test("a body up to the limit reaches the handler whole")
    func atLimit() throws {
        let counter = LengthHandler()
        let server = try startServer({ $0.maxBodyBytes = 1 << 20 }, handler: counter.handler)
        defer { server.stop() }
        let connection = try TestConnection(port: server.port)
        connection.send(rawRequest("POST", "/", body: String(repeating: "x", count: 1 << 20)))
        let response = try connection.readResponse()
        #expect(response.status == 200)
        #expect(response.text == "\(1 << 20)")
    }

    @Test("a 2 MiB body with its Content-Length gets 413 and the handler is not called")
    func announcedTooLarge() throws {
        let counter = LengthHandler()
        let server = try startServer(handler: counter.handler)
        defer { server.stop() }
        let connection = try TestConnection(port: server.port)
        connection.send(rawRequest("POST", "/", body: String(repeating: "x", count: Self.twoMiB)))
        let response = try connection.readResponse()
        #expect(response.status == 413)
        #expect(response.header("Connection") == "close")
        #expect(counter.calls.load(ordering: .relaxed) == 0)
    }

    @Test("a Content-Length over the limit gets 413 at once, before any body is sent")
    func announcedOnly() throws {
        let counter = LengthHandler()
        let server = try startServer(handler: counter.handler)
        defer { server.stop() }
        let connection = try TestConnection(port: server.port, timeout: 5)
        connection.send("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: \(Self.twoMiB)\r\n\r\n")
        #expect(try connection.readResponse().status == 413)
        #expect(counter.calls.load(ordering: .relaxed) == 0)
    }

    @Test("Expect: 100-continue with a body over the limit gets 413 instead of 100")
    func expectContinueRefused() throws {
        let server = try startServer(handler: LengthHandler().handler)
        defer { server.stop() }
        let connection = try TestConnection(port: server.port, timeout: 5)
        connection.send(
            "POST / HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: \(Self.twoMiB)\r\n\r\n")
        #expect(try connection.readHead().status == 413)
    }

    @Test("Expect: 100-continue with an acceptable body gets 100, then the answer")
    func expectContinue() throws {
        let server = try startServer(handler: LengthHandler().handler)
        defer { server.stop() }
        let connection = try TestConnection(port: server.port, timeout: 5)
        connection.send("POST / HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n")
        #expect(try connection.readHead().status == 100)
        connection.send("abc")
        #expect(try connection.readResponse().text == "3")
    }

    @Test("a chunked body is reassembled")
    func chunked() throws {
        let server = try startServer { request in .text(String(decoding: request.body, as: UTF8.self)) }
        defer { server.stop() }
        let connection = try TestConnection(port: server.port)
        connection.send("POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n")
        connection.send("5\r\nhello\r\n")
        connection.send("1;ext=1\r\n \r\n6\r\nworld!\r\n0\r\n\r\n")
        #expect(try connection.readResponse().text == "hello world!")
    }

    @Test("a 2 MiB chunked body gets 413 after the upload and the handler is not called")
    func chunkedTooLarge() throws {
        let counter = LengthHandler()
        let server = try startServer(handler: counter.handler)
        defer { server.stop() }
        let connection = try TestConnection(port: server.port)
        connection.send("POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n")
        let chunk = "10000\r\n" + String(repeating: "y", count: 0x10000) + "\r\n"
        for _ in 0..<(Self.twoMiB / 0x10000) { connection.send(chunk) }
        connection.send("0\r\n\r\n")
        #expect(try connection.readResponse().status == 413)
        #expect(counter.calls.load(ordering: .relaxed) == 0)
    }

    @Test("a chunked body that goes on far past the limit has its connection closed, logged as refused")
    func endlessChunked() throws {
        let log = Recorder<HTTPAccessLogEntry>()
        let server = try startServer(
            {
                $0.maxBodyBytes = 1024
                $0.accessLog = { log.record($0) }
            }, handler: LengthHandler().handler)
        defer { server.stop() }
        let connection = try TestConnection(port: server.port)
        connection.send("POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n")
        let chunk = "400\r\n" + String(repeating: "z", count: 1024) + "\r\n"
        var refused = false
        for _ in 0..<1000 where !refused { refused = !connection.send(chunk) }
        #expect(refused || connection.peerClosed())
        for _ in 0..<300 where log.all.isEmpty { pause(milliseconds: 10) }
        #expect(log.all.map(\.outcome) == [.refused])
        #expect(log.all.first?.status == nil)
    }

    @Test("a Content-Length shorter than the body sent frames the body; the rest is a bad next request")
    func lyingShortLength() throws {
        let server = try startServer { request in .text(String(decoding: request.body, as: UTF8.self)) }
        defer { server.stop() }
        let connection = try TestConnection(port: server.port)
        connection.send("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n\r\n01234GARBAGE / HTTP/1.1\r\n\r\n")
        #expect(try connection.readResponse().text == "01234")
        #expect(try connection.readResponse().status == 400)
    }

    @Test("a Content-Length longer than the body sent waits, then times out without calling the handler")
    func lyingLongLength() throws {
        let counter = LengthHandler()
        let server = try startServer({ $0.connectionTimeout = .seconds(1) }, handler: counter.handler)
        defer { server.stop() }
        let connection = try TestConnection(port: server.port, timeout: 5)
        connection.send("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 100\r\n\r\nonly this")
        #expect(connection.peerClosed())
        #expect(counter.calls.load(ordering: .relaxed) == 0)
    }

    @Test("Content-Length with Transfer-Encoding, two Content-Lengths, an unknown coding, or a folded one get 400")
    func conflictingFraming() throws {
        let counter = LengthHandler()
        let server = try startServer(handler: counter.handler)
        defer { server.stop() }
        for headers in [
            ["Content-Length: 3", "Transfer-Encoding: chunked"], ["Content-Length: 3", "Content-Length: 4"],
            ["Transfer-Encoding: gzip"], ["Transfer-Encoding: chunked", "Transfer-Encoding: chunked"],
            ["Content-Length:\r\n 3"], ["Transfer-Encoding:\r\n chunked"],
        ] {
            let connection = try TestConnection(port: server.port)
            connection.send(rawRequest("POST", "/", headers: headers) + "3\r\nabc\r\n0\r\n\r\n")
            #expect(try connection.readResponse().status == 400, "\(headers)")
        }
        #expect(counter.calls.load(ordering: .relaxed) == 0)
    }

    @Test("an HTTP/1.0 request with Transfer-Encoding gets 400 and its body is never read as a request")
    func transferEncodingInHTTP10() throws {
        let counter = LengthHandler()
        let server = try startServer(handler: counter.handler)
        defer { server.stop() }
        let connection = try TestConnection(port: server.port)
        connection.send(
            "POST / HTTP/1.0\r\nHost: t\r\nTransfer-Encoding: chunked\r\nConnection: keep-alive\r\n\r\n0\r\n\r\n"
                + "GET / HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try connection.readResponse().status == 400)
        #expect(connection.peerClosed())
        #expect(counter.calls.load(ordering: .relaxed) == 0)
    }

    @Test("a malformed or absurd Content-Length is refused by libmicrohttpd")
    func malformedLength() throws {
        let server = try startServer(handler: LengthHandler().handler)
        defer { server.stop() }
        for (value, status) in [("abc", 400), ("-1", 400), ("99999999999999999999999", 413)] {
            let connection = try TestConnection(port: server.port)
            connection.send("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: \(value)\r\n\r\n")
            #expect(try connection.readHead().status == status, "\(value)")
        }
    }

    @Test("the server's own answers come from the configured error response")
    func customErrorResponse() throws {
        let server = try startServer(
            {
                $0.maxBodyBytes = 10
                $0.errorResponse = { status, message in
                    .json(Array(#"{"error":{"code":"too_large","message":"\#(message)"}}"#.utf8), status: status)
                }
            }, handler: LengthHandler().handler)
        defer { server.stop() }
        let connection = try TestConnection(port: server.port)
        connection.send(rawRequest("POST", "/", body: "01234567890"))
        let response = try connection.readResponse()
        #expect(response.status == 413)
        #expect(response.header("Content-Type") == "application/json")
        #expect(response.text == #"{"error":{"code":"too_large","message":"request body is larger than 10 bytes"}}"#)
    }
}
