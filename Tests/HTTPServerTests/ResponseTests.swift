import CartTestSupport
import HTTPServer
import Testing

@Suite("Responses: headers, refusals, produced bodies")
struct ResponseTests {
    /// Serves one response and returns what the client read, and the error log.
    func serve(_ response: @escaping @Sendable () -> HTTPResponse) throws -> (TestResponse, [String]) {
        let log = Recorder<String>()
        let server = try startServer({ $0.errorLog = { log.record($0) } }) { _ in response() }
        defer { server.stop() }
        let connection = try TestConnection(port: server.port)
        connection.send(rawRequest("GET", "/"))
        return (try connection.readResponse(), log.all)
    }

    @Test("status, headers and a JSON body arrive as set")
    func json() throws {
        let (response, _) = try serve {
            .json(Array(#"{"a":1}"#.utf8), status: 201, headers: ["Location": "/v1/carts/x", "ETag": "\"3\""])
        }
        #expect(response.status == 201)
        #expect(response.header("Content-Type") == "application/json")
        #expect(response.header("Location") == "/v1/carts/x")
        #expect(response.header("ETag") == "\"3\"")
        #expect(response.header("Content-Length") == "7")
        #expect(response.text == #"{"a":1}"#)
    }

    @Test("a header value with CR or LF is refused: the client gets 500 and no injected header")
    func injectedValue() throws {
        for value in ["x\r\nSet-Cookie: session=evil", "x\nX-Evil: 1", "x\rX-Evil: 1", "x\0y"] {
            let (response, log) = try serve { .text("body", headers: ["Location": value]) }
            #expect(response.status == 500, "\(value.debugDescription)")
            #expect(response.header("Set-Cookie") == nil)
            #expect(response.header("X-Evil") == nil)
            #expect(response.header("Location") == nil)
            #expect(log.contains { $0.contains("refused the response") })
        }
    }

    @Test("a header name that is not a token is refused")
    func injectedName() throws {
        for name in ["X-Evil\r\nSet-Cookie", "Bad Name", "Colon:", ""] {
            let (response, _) = try serve { .text("body", headers: HTTPHeaders([(name: name, value: "v")])) }
            #expect(response.status == 500, "\(name.debugDescription)")
        }
    }

    @Test("framing and connection headers set by the application are refused")
    func framingHeaders() throws {
        for (name, value) in [("Content-Length", "4"), ("transfer-encoding", "4"), ("Connection", "Upgrade, Keep-Alive")] {
            let (response, errors) = try serve { .text("body", headers: HTTPHeaders([(name: name, value: value)])) }
            #expect(response.status == 500)
            #expect(errors.contains { $0.contains("header \(name)") && $0.contains("the server's") }, "\(errors)")
        }
        let (upgrade, _) = try serve { .text("body", status: 426, headers: ["Upgrade": "HTTP/1.1", "Connection": "Upgrade"]) }
        #expect(upgrade.status == 426)
    }

    @Test("a status outside 200...599 is refused")
    func badStatus() throws {
        for status in [0, 99, 101, 600, 1000, -1] {
            let (response, _) = try serve { .text("body", status: status) }
            #expect(response.status == 500, "\(status)")
        }
    }

    @Test("a produced body arrives chunked and whole")
    func producedBody() throws {
        let (response, _) = try serve {
            var row = 0
            return HTTPResponse(
                status: 200, headers: ["Content-Type": "text/csv"],
                body: .chunks {
                    guard row < 10_000 else { return nil }
                    row += 1
                    return row % 7 == 0 ? [] : Array("\(row),item-\(row)\n".utf8)
                })
        }
        #expect(response.header("Transfer-Encoding") == "chunked")
        let lines = response.text.split(separator: "\n")
        #expect(lines.count == 10_000 - 10_000 / 7)
        #expect(lines.first == "1,item-1")
        #expect(lines.last == "10000,item-10000")
    }

    @Test("a large produced piece is split to fit and arrives whole")
    func largePiece() throws {
        let piece = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 % 251) }
        let (response, _) = try serve {
            var done = false
            return HTTPResponse(
                status: 200,
                body: .chunks {
                    defer { done = true }
                    return done ? nil : piece
                })
        }
        #expect(response.body == piece)
    }

    @Test("a body producer that throws ends the connection without the final chunk")
    func failingProducer() throws {
        struct ExportFailed: Error {}
        let log = Recorder<String>()
        let server = try startServer({ $0.errorLog = { log.record($0) } }) { _ in
            var row = 0
            return HTTPResponse(
                status: 200,
                body: .chunks {
                    row += 1
                    if row > 3 { throw ExportFailed() }
                    return Array("row \(row)\n".utf8)
                })
        }
        defer { server.stop() }
        let connection = try TestConnection(port: server.port)
        connection.send(rawRequest("GET", "/export"))
        let head = try connection.readHead()
        #expect(head.status == 200)
        var received: [UInt8] = []
        #expect(throws: (any Error).self) {
            while let chunk = try connection.readChunk() { received += chunk }
        }
        #expect(String(decoding: received, as: UTF8.self) == "row 1\nrow 2\nrow 3\n")
        #expect(log.all.contains { $0.contains("ExportFailed") })
    }
}
