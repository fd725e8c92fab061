import CartTestSupport
import Glibc
@testable import HTTPServer
import Testing

@Suite("Access log and error log")
struct AccessLogTests {
    @Test(
        "an IPv4 client address is written as inet_ntop writes it",
        arguments: ["0.0.0.0", "127.0.0.1", "10.20.3.199", "255.255.255.255", "192.168.100.9", "1.22.133.0"])
    func dottedQuad(_ text: String) throws {
        var address = in_addr()
        try #require(inet_pton(AF_INET, text, &address) == 1)
        #expect(ListenAddress.dottedQuad(address) == text)
    }

    /// Waits until `recorder` holds `count` entries, or a few seconds have passed.
    func wait(for count: Int, in recorder: Recorder<HTTPAccessLogEntry>) -> [HTTPAccessLogEntry] {
        for _ in 0..<300 where recorder.all.count < count { pause(milliseconds: 10) }
        return recorder.all
    }

    @Test("one entry per request, after its response, with method, target, status and duration")
    func entries() throws {
        let log = Recorder<HTTPAccessLogEntry>()
        let server = try startServer({ $0.accessLog = { log.record($0) } }) { request in
            pause(milliseconds: 20)
            return .text("x", status: request.target == "/missing" ? 404 : 200)
        }
        defer { server.stop() }
        let connection = try TestConnection(port: server.port)
        connection.send(rawRequest("GET", "/v1/health?x=1"))
        _ = try connection.readResponse()
        connection.send(rawRequest("DELETE", "/missing"))
        _ = try connection.readResponse()
        let entries = wait(for: 2, in: log)
        #expect(entries.map(\.method) == ["GET", "DELETE"])
        #expect(entries.map(\.target) == ["/v1/health?x=1", "/missing"])
        #expect(entries.map(\.status) == [200, 404])
        #expect(entries.allSatisfy { $0.duration >= .milliseconds(20) && $0.outcome == .completed })
        #expect(entries.allSatisfy { $0.remoteAddress == "127.0.0.1" })
        let line = try #require(entries.first?.line)
        #expect(line.hasPrefix("127.0.0.1 GET /v1/health?x=1 200 "))
        #expect(line.hasSuffix("ms"))
    }

    @Test("answers libmicrohttpd makes itself, and the server's 413, are logged too")
    func serverAnswers() throws {
        let log = Recorder<HTTPAccessLogEntry>()
        let server = try startServer(
            {
                $0.accessLog = { log.record($0) }
                $0.connectionMemoryLimit = 8192
                $0.maxBodyBytes = 4
            }, handler: { _ in .text("x") })
        defer { server.stop() }
        let big = try TestConnection(port: server.port)
        big.send(rawRequest("GET", "/big", headers: ["X-Big: " + String(repeating: "a", count: 10_000)]))
        #expect(try big.readResponse().status == 431)
        let body = try TestConnection(port: server.port)
        body.send(rawRequest("POST", "/body", body: "too long"))
        #expect(try body.readResponse().status == 413)
        let entries = wait(for: 2, in: log)
        #expect(entries.first { $0.target == "/big" }?.status == nil)
        #expect(entries.first { $0.target == "/big" }?.outcome == .refused)
        #expect(entries.first { $0.target == "/body" }?.status == 413)
    }

    @Test("a client that leaves mid-request is logged as gone, and a stalled one as timed out")
    func abandoned() throws {
        let log = Recorder<HTTPAccessLogEntry>()
        let server = try startServer(
            {
                $0.accessLog = { log.record($0) }
                $0.connectionTimeout = .seconds(1)
            }, handler: { _ in .text("x") })
        defer { server.stop() }
        do {
            let leaving = try TestConnection(port: server.port)
            leaving.send("GET /leaving HTTP/1.1\r\nHost: t\r\n")
            pause(milliseconds: 50)
        }
        let stalled = try TestConnection(port: server.port, timeout: 5)
        stalled.send("GET /stalled HTTP/1.1\r\nHost: t\r\n")
        #expect(stalled.peerClosed())
        let entries = wait(for: 2, in: log)
        #expect(entries.first { $0.target == "/leaving" }?.outcome == .clientGone)
        #expect(entries.first { $0.target == "/stalled" }?.outcome == .timedOut)
        #expect(entries.first { $0.target == "/stalled" }?.line.hasSuffix(" timed-out") == true)
    }

    @Test(
        "control characters and bidirectional overrides in a logged target are escaped, so an entry is one line read in its order",
        arguments: [
            ("/a\u{1B}[31mred\\b", #"/a\x1B[31mred\x5Cb"#),
            ("/a\u{202E}b\u{2066}c\u{200E}d", "/a\\x202Eb\\x2066c\u{200E}d"),
        ])
    func escapedLine(target: String, logged: String) throws {
        let log = Recorder<HTTPAccessLogEntry>()
        let server = try startServer({ $0.accessLog = { log.record($0) } }, handler: { _ in .text("x") })
        defer { server.stop() }
        let connection = try TestConnection(port: server.port)
        connection.send("GET \(target) HTTP/1.1\r\nHost: t\r\n\r\n")
        _ = try connection.readResponse()
        let line = try #require(wait(for: 1, in: log).first?.line)
        #expect(line.hasPrefix("127.0.0.1 GET \(logged) 200 "))
    }

    @Test("a long target is cut in the line, which stays one short line")
    func longTarget() {
        let entry = HTTPAccessLogEntry(
            method: "GET", target: "/" + String(repeating: "é", count: 20_000), status: 414, duration: .milliseconds(1),
            remoteAddress: nil, outcome: .completed)
        #expect(entry.line.hasPrefix("- GET /é"))
        #expect(entry.line.contains("é…(40001 bytes) 414 1.000ms"))
        #expect(entry.line.utf8.count < 600)
        // So is a long method, which libmicrohttpd takes as long as the head fits.
        let method = HTTPAccessLogEntry(
            method: String(repeating: "X", count: 30_000), target: "/", status: 405, duration: .milliseconds(1),
            remoteAddress: nil, outcome: .completed)
        #expect(method.line == "- " + String(repeating: "X", count: 31) + "…(30000 bytes) / 405 1.000ms")
    }

    @Test("the status and the duration in milliseconds, to the microsecond", arguments: [
        (200 as Int?, Duration.microseconds(5), "200 0.005ms"),
        (404, .microseconds(12_345), "404 12.345ms"),
        (500, .nanoseconds(1_234_567_999), "500 1234.567ms"),
        (nil, .seconds(90), "- 90000.000ms"),
        (201, .zero, "201 0.000ms"),
    ])
    func statusAndDuration(status: Int?, duration: Duration, logged: String) {
        let entry = HTTPAccessLogEntry(
            method: "GET", target: "/", status: status, duration: duration, remoteAddress: "::1", outcome: .completed)
        #expect(entry.line == "::1 GET / \(logged)")
    }

    @Test("a bearer token sent in the query never reaches the log", arguments: [
        ("/v1/orders?access_token=s3cret", "/v1/orders?access_token=REDACTED"),
        ("/v1/orders?limit=2&access_token=s3cret&after=4", "/v1/orders?limit=2&access_token=REDACTED&after=4"),
        ("/v1/orders?my_access_token=x&access_token=", "/v1/orders?my_access_token=x&access_token=REDACTED"),
        ("/access_token=x", "/access_token=x"),
        ("/v1/orders?limit=2", "/v1/orders?limit=2"),
        ("/v1/orders?access%5Ftoken=s3cret", "/v1/orders?access%5Ftoken=REDACTED"),
        ("/v1/orders?%61ccess_token=s3cret&limit=%ZZ", "/v1/orders?%61ccess_token=REDACTED&limit=%ZZ"),
        ("/v1/orders?access_token%3Ds3cret&cart=%C3%A9", "/v1/orders?REDACTED&cart=%C3%A9"),
        ("/v1/orders?ACCESS_TOKEN%3ds3cret%ZZ&limit=2", "/v1/orders?REDACTED&limit=2"),
        ("/v1/orders?access_token", "/v1/orders?REDACTED"),
        ("/v1/orders?oldest_first&limit", "/v1/orders?oldest_first&limit"),
        ("/v1/orders?Access_Token=s3cret", "/v1/orders?Access_Token=REDACTED"),
        ("/v1/orders?ACCESS%5FTOKEN=s3cret", "/v1/orders?ACCESS%5FTOKEN=REDACTED"),
        ("/v1/orders?access_token%00=s3cret", "/v1/orders?access_token%00=REDACTED"),
        ("/v1/orders?access_tokens=s3cret", "/v1/orders?access_tokens=REDACTED"),
        ("/v1/orders?acc%zzess_token=s3cret&limit=2", "/v1/orders?acc%zzess_token=REDACTED&limit=2"),
        ("/v1/orders?%61ccess_token%00=s3cret", "/v1/orders?%61ccess_token%00=REDACTED"),
        ("/v1/orders?tok%zzen=s3cret&cart=%ZZ", "/v1/orders?tok%zzen=REDACTED&cart=%ZZ"),
        ("/v1/orders?access_%74oken=s3cret", "/v1/orders?access_%74oken=REDACTED"),
        ("/v1/orders?access%5ftoken=s3cret", "/v1/orders?access%5ftoken=REDACTED"),
        ("/v1/orders?%41ccess%5f%54oken=s3cret", "/v1/orders?%41ccess%5f%54oken=REDACTED"),
        // `+` is a space in a name, as the server decodes it: `access token` is another parameter.
        ("/v1/orders?access_token+=s3cret", "/v1/orders?access_token+=REDACTED"),
        ("/v1/orders?access+token=x", "/v1/orders?access+token=x"),
    ])
    func tokenInQueryRedacted(target: String, logged: String) {
        let entry = HTTPAccessLogEntry(
            method: "GET", target: target, status: 401, duration: .milliseconds(1), remoteAddress: "127.0.0.1", outcome: .completed)
        #expect(entry.line == "127.0.0.1 GET \(logged) 401 1.000ms")
    }

    @Test("libmicrohttpd's report of an answer it made itself is logged without its HTML page")
    func readableRefusal() {
        let message = #"Error processing request (HTTP response code is 400 ('<html><head><title>&quot;Host:&quot; header required</title></head><body>In HTTP 1.1, requests must include a &quot;Host:&quot; header.</body></html>')). Closing connection."#
        #expect(MHDCallbacks.readable(message) == #"answered 400 ("Host:" header required) and closed the connection"#)
        #expect(MHDCallbacks.readable("Failed to bind to port 8080: Address already in use") == "Failed to bind to port 8080: Address already in use")
    }

    @Test("libmicrohttpd's messages go to the error log, not to stderr")
    func errorLog() throws {
        let messages = Recorder<String>()
        let server = try startServer({ $0.errorLog = { messages.record($0) } }, handler: { _ in .text("x") })
        defer { server.stop() }
        let connection = try TestConnection(port: server.port)
        connection.send("GET / HTTP/1.1\r\n\r\n")
        #expect(try connection.readResponse().status == 400)
        for _ in 0..<100 where messages.all.isEmpty { pause(milliseconds: 10) }
        #expect(messages.all.contains { $0.contains("Host") })
    }
}
