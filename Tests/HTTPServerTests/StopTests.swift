import CartTestSupport
import Dispatch
import HTTPServer
import Synchronization
import Testing

@Suite("Graceful stop")
struct StopTests {
    /// Serves `/events` as a stream and `/slow` after a pause; reports when `/slow` started.
    final class SlowApp: Sendable {
        let streams = Recorder<HTTPStream>()
        let slowStarted = Atomic(false)
        let pauseMilliseconds: Int

        init(pauseMilliseconds: Int = 400) {
            self.pauseMilliseconds = pauseMilliseconds
        }

        var handler: HTTPHandler {
            { request in
                switch request.target {
                case "/events":
                    let stream = HTTPStream.serverSentEvents()
                    self.streams.record(stream)
                    return .eventStream(stream)
                case "/slow":
                    self.slowStarted.store(true, ordering: .relaxed)
                    pause(milliseconds: self.pauseMilliseconds)
                    return .text("finished")
                default:
                    return .text("quick")
                }
            }
        }

        func waitForSlow() {
            for _ in 0..<500 where !slowStarted.load(ordering: .relaxed) { pause(milliseconds: 5) }
        }
    }

    @Test("stop ends open streams cleanly, lets the request in flight finish, and answers no new connection")
    func graceful() throws {
        let app = SlowApp()
        let server = try startServer(handler: app.handler)
        let port = server.port
        let events = try TestConnection(port: port)
        events.send(rawRequest("GET", "/events"))
        #expect(try events.readHead().status == 200)
        let idle = try TestConnection(port: port)
        idle.send(rawRequest("GET", "/quick"))
        #expect(try idle.readResponse().status == 200)
        let slow = try TestConnection(port: port)
        slow.send(rawRequest("GET", "/slow"))
        app.waitForSlow()

        let stopped = Atomic(0)
        let stopper = DispatchQueue(label: "stopper")
        stopper.async { stopped.store(server.stop() ? 1 : 2, ordering: .relaxed) }
        pause(milliseconds: 100)

        // A connection made now is closed as soon as it is accepted, unanswered.
        let late = try TestConnection(port: port)
        late.send(rawRequest("GET", "/quick"))
        #expect(throws: (any Error).self) { try late.readResponse() }
        #expect(try events.readChunk() == nil)
        let response = try slow.readResponse()
        #expect(response.text == "finished")
        #expect(response.header("Connection") == "close")
        #expect(idle.peerClosed())
        stopper.sync {}
        #expect(stopped.load(ordering: .relaxed) == 1)
        #expect(app.streams.all.allSatisfy { $0.isClosed })
    }

    @Test("stop can be called again, from several threads, and returns the first result")
    func idempotent() throws {
        let server = try startServer { _ in .text("ok") }
        let results = Recorder<Bool>()
        runOnThreads(4) { _ in results.record(server.stop()) }
        #expect(results.all == [true, true, true, true])
        #expect(server.stop())
        #expect(server.stop(deadline: .zero))
    }

    @Test("a request still running at the deadline makes stop report false, and stop still returns")
    func deadline() throws {
        let app = SlowApp(pauseMilliseconds: 1000)
        let server = try startServer(handler: app.handler)
        let slow = try TestConnection(port: server.port)
        slow.send(rawRequest("GET", "/slow"))
        app.waitForSlow()
        #expect(!server.stop(deadline: .milliseconds(100)))
        #expect(!server.stop())
    }

    @Test("a client that sent a request line and nothing more holds no stop up: it drains within its deadline")
    func requestLineAlone() throws {
        let server = try startServer { _ in .text("ok") }
        let stalled = try TestConnection(port: server.port)
        stalled.send(Array("GET /quick HTTP/1.1\r\n".utf8))
        // A request with its headers whole does count, and is answered before the stop ends.
        let whole = try TestConnection(port: server.port)
        whole.send(rawRequest("GET", "/quick"))
        #expect(try whole.readResponse().text == "ok")
        pause(milliseconds: 200)
        #expect(server.stop(deadline: .seconds(10)))
        #expect(stalled.peerClosed())
    }

    @Test("a stream whose client does not read cannot hold stop past its deadline")
    func stuckStream() throws {
        let app = SlowApp()
        let server = try startServer(handler: app.handler)
        let events = try TestConnection(port: server.port)
        events.send(rawRequest("GET", "/events"))
        #expect(try events.readHead().status == 200)
        for _ in 0..<500 where app.streams.all.isEmpty { pause(milliseconds: 5) }
        let stream = try #require(app.streams.all.first)
        let block = String(repeating: "x", count: 60_000)
        for _ in 0..<15 { stream.sendEvent(data: block) }
        let start = ContinuousClock.now
        let drained = server.stop(deadline: .milliseconds(300))
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(!drained || stream.isClosed)
    }

    @Test("a server that is no longer referenced stops itself")
    func stopsOnRelease() throws {
        var server: HTTPServer? = try startServer { _ in .text("ok") }
        let port = try #require(server?.port)
        let connection = try TestConnection(port: port)
        connection.send(rawRequest("GET", "/"))
        #expect(try connection.readResponse().status == 200)
        server = nil
        #expect(connection.peerClosed())
        #expect(throws: (any Error).self) { try TestConnection(port: port) }
    }
}
