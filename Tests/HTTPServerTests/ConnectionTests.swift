import CartTestSupport
import Dispatch
import HTTPServer
import Synchronization
import Testing

@Suite("Connections: keep-alive, pipelining, timeouts, limits, concurrency")
struct ConnectionTests {
    static let echoPath: HTTPHandler = { request in .text(request.target) }

    @Test("one connection carries many requests in turn")
    func keepAlive() throws {
        let server = try startServer(handler: Self.echoPath)
        defer { server.stop() }
        let connection = try TestConnection(port: server.port)
        for index in 0..<20 {
            connection.send(rawRequest("GET", "/\(index)"))
            let response = try connection.readResponse()
            #expect(response.text == "/\(index)")
            #expect(response.header("Connection") == nil)
        }
    }

    @Test("pipelined requests sent in one write are answered in order")
    func pipelining() throws {
        let server = try startServer(handler: Self.echoPath)
        defer { server.stop() }
        let connection = try TestConnection(port: server.port)
        connection.send((0..<10).map { rawRequest($0 == 3 ? "POST" : "GET", "/\($0)", body: $0 == 3 ? "body" : "") }.joined())
        for index in 0..<10 {
            #expect(try connection.readResponse().text == "/\(index)")
        }
    }

    @Test("pipelined garbage after a good request gets that request's answer, then 400 and a close")
    func pipelinedGarbage() throws {
        let server = try startServer(handler: Self.echoPath)
        defer { server.stop() }
        let connection = try TestConnection(port: server.port)
        connection.send(rawRequest("GET", "/ok") + "\u{01}\u{02} NONSENSE\r\n\r\n" + rawRequest("GET", "/never"))
        #expect(try connection.readResponse().text == "/ok")
        #expect(try connection.readHead().status == 400)
        #expect(connection.peerClosed())
    }

    @Test("a client that stalls in the middle of its headers is dropped after the timeout")
    func slowClient() throws {
        let server = try startServer({ $0.connectionTimeout = .seconds(1) }, handler: Self.echoPath)
        defer { server.stop() }
        let connection = try TestConnection(port: server.port, timeout: 5)
        let start = ContinuousClock.now
        connection.send("GET /slow HTTP/1.1\r\nHost: t\r\nX-Partial: ")
        #expect(connection.peerClosed())
        let waited = ContinuousClock.now - start
        #expect(waited >= .milliseconds(900) && waited < .seconds(4))
    }

    @Test("an idle keep-alive connection is closed after the timeout")
    func idleKeepAlive() throws {
        let server = try startServer({ $0.connectionTimeout = .seconds(1) }, handler: Self.echoPath)
        defer { server.stop() }
        let connection = try TestConnection(port: server.port, timeout: 5)
        connection.send(rawRequest("GET", "/once"))
        #expect(try connection.readResponse().status == 200)
        #expect(connection.peerClosed())
    }

    @Test("a whole request whose client closed before its worker got to it is still handled, and answered to no one")
    func requestOfClientGoneBeforeHandling() throws {
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let handled = Recorder<String>()
        let log = Recorder<HTTPAccessLogEntry>()
        let server = try startServer({ configuration in
            configuration.threads = 1
            configuration.accessLog = { log.record($0) }
        }) { request in
            if request.target == "/slow" {
                started.signal()
                _ = release.wait(timeout: .now() + 30)
            }
            handled.record(request.method + " " + request.target)
            return .text("done")
        }
        defer { server.stop() }
        let slow = try TestConnection(port: server.port)
        slow.send(rawRequest("GET", "/slow"))
        #expect(started.wait(timeout: .now() + 30) == .success)
        // The one worker is busy with /slow: the next client's request waits in the socket,
        // and the client closes before the worker reads it.
        do {
            let gone = try TestConnection(port: server.port)
            gone.send(rawRequest("POST", "/change", body: "x"))
        }
        release.signal()
        #expect(try slow.readResponse().text == "done")
        for _ in 0..<500 where log.all.count < 2 { pause(milliseconds: 10) }
        #expect(handled.all == ["GET /slow", "POST /change"])
        #expect(log.all.last?.method == "POST")
    }

    @Test("a stalled client does not hold up other clients")
    func stallDoesNotBlock() throws {
        let server = try startServer({ $0.threads = 1 }, handler: Self.echoPath)
        defer { server.stop() }
        let stalled = try TestConnection(port: server.port)
        stalled.send("GET /stalled HTTP/1.1\r\nHost: t\r\n")
        let other = try TestConnection(port: server.port, timeout: 2)
        other.send(rawRequest("GET", "/other"))
        #expect(try other.readResponse().text == "/other")
    }

    @Test("headers larger than the connection memory get 431; a huge target gets 414")
    func headerTooLarge() throws {
        let server = try startServer({ $0.connectionMemoryLimit = 16 * 1024 }, handler: Self.echoPath)
        defer { server.stop() }
        let big = try TestConnection(port: server.port)
        big.send(rawRequest("GET", "/", headers: ["X-Big: " + String(repeating: "a", count: 20_000)]))
        #expect(try big.readResponse().status == 431)
        let long = try TestConnection(port: server.port)
        long.send(rawRequest("GET", "/" + String(repeating: "a", count: 20_000)))
        #expect(try long.readResponse().status == 414)
    }

    @Test("64 connections each sending 50 requests to a handler that sleeps all get their answers")
    func manyConnections() throws {
        let calls = Atomic(0)
        let server = try startServer({ $0.threads = 8 }) { request in
            calls.add(1, ordering: .relaxed)
            pause(milliseconds: 1)
            return .text(request.target)
        }
        defer { server.stop() }
        let failures = Recorder<String>()
        runOnThreads(64) { client in
            do {
                let connection = try TestConnection(port: server.port)
                for index in 0..<50 {
                    connection.send(rawRequest("GET", "/\(client)/\(index)"))
                    let response = try connection.readResponse()
                    if response.text != "/\(client)/\(index)" { failures.record("\(client)/\(index): \(response.text)") }
                }
            } catch {
                failures.record("\(client): \(error)")
            }
        }
        #expect(failures.all == [])
        #expect(calls.load(ordering: .relaxed) == 64 * 50)
    }

    @Test("a connection beyond the limit waits unanswered until another one closes")
    func connectionLimit() throws {
        let server = try startServer(
            {
                $0.maxConnections = 2
                $0.threads = 1
            }, handler: Self.echoPath)
        defer { server.stop() }
        var held = try (0..<2).map { _ in try TestConnection(port: server.port) }
        for (index, connection) in held.enumerated() {
            connection.send(rawRequest("GET", "/\(index)"))
            #expect(try connection.readResponse().status == 200)
        }
        let extra = try TestConnection(port: server.port, timeout: 3)
        extra.send(rawRequest("GET", "/extra"))
        #expect(extra.staysQuiet(milliseconds: 500))
        held.removeFirst()
        #expect(try extra.readResponse().text == "/extra")
    }

    @Test("connections beyond the per-IP limit are refused")
    func perIPLimit() throws {
        let server = try startServer({ $0.maxConnectionsPerIP = 2 }, handler: Self.echoPath)
        defer { server.stop() }
        let held = try (0..<2).map { _ in try TestConnection(port: server.port) }
        for connection in held {
            connection.send(rawRequest("GET", "/"))
            #expect(try connection.readResponse().status == 200)
        }
        let extra = try TestConnection(port: server.port, timeout: 3)
        extra.send(rawRequest("GET", "/extra"))
        #expect(extra.peerClosed())
    }

    @Test("HTTP/1.0 requests are answered and their connection closed")
    func http10() throws {
        let server = try startServer(handler: Self.echoPath)
        defer { server.stop() }
        let connection = try TestConnection(port: server.port)
        connection.send("GET /old HTTP/1.0\r\n\r\n")
        #expect(try connection.readResponse().text == "/old")
        #expect(connection.peerClosed())
    }
}
