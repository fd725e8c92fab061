import CartCore
@testable import CartHTTP
import CartSQLite
import CartTestSupport
import HTTPServer
import StrictJSON
import Synchronization
import Testing

@Suite("The cart event stream")
struct EventStreamTests {
    /// Opens the stream of cart `id` and reads its head.
    func open(_ id: String, on shop: TestShop) throws -> TestConnection {
        let (connection, head) = try requestStream(id, on: shop)
        #expect(head.status == 200)
        #expect(head.header("Content-Type") == "text/event-stream")
        #expect(head.header("Cache-Control") == "no-store")
        return connection
    }

    /// Asks for the stream of cart `id` on a new connection; returns it and the answer's head.
    func requestStream(_ id: String, on shop: TestShop) throws -> (TestConnection, TestResponse) {
        let connection = try TestConnection(port: shop.server.port, timeout: 5)
        connection.send(rawRequest("GET", "/v1/carts/\(id)/events", host: shop.host))
        return (connection, try connection.readHead())
    }

    /// Reads chunks until `count` more `cart` events arrived; returns their data.
    func events(_ connection: TestConnection, count: Int) throws -> [String] {
        var text = ""
        var found: [String] = []
        while found.count < count {
            guard let chunk = try connection.readChunk() else { break }
            text += String(decoding: chunk, as: UTF8.self)
            var complete = text.split(separator: "\n\n")
            if !text.hasSuffix("\n\n"), !complete.isEmpty { complete.removeLast() }
            found = complete.filter { $0.hasPrefix("event: cart\n") }.map {
                String($0.dropFirst("event: cart\ndata: ".count))
            }
        }
        return found
    }

    @Test("the stream starts with the cart and sends it again after a change made through another connection to the file")
    func changeFromAnotherProcess() throws {
        let shop = try TestShop()
        let id = try shop.mint()
        let connection = try open(id, on: shop)
        let first = try events(connection, count: 1)
        #expect(first.count == 1)
        #expect(first.first?.contains(#""version":0"#) == true)
        let elsewhere = CartService(repository: try SQLiteCartRepository(path: shop.path))
        try elsewhere.add("banana", quantity: 2, to: id)
        let second = try events(connection, count: 1)
        #expect(second.count == 1)
        let json = try JSONReader.parse(Array(second[0].utf8), maxDepth: 64)
        #expect(json["version"]?.int == 1)
        #expect(json["items"]?[0]?["quantity"]?.int == 2)
        #expect(json["problems"]?.array == [])
    }

    @Test("a change to another cart or a no-op sends nothing; a repricing, which keeps the version, sends the cart")
    func onlyRealChanges() throws {
        let shop = try TestShop()
        let id = try shop.cart(with: [("apple", 1)])
        let connection = try open(id, on: shop)
        #expect(try events(connection, count: 1).count == 1)
        try shop.service.add("apple", to: try shop.mint())
        try shop.service.clear(try shop.mint())
        #expect(connection.staysQuiet(milliseconds: 300))
        _ = try shop.send("PUT", "/v1/products/apple", json: #"{"name":"Apple","price":"0.60"}"#, admin: true)
        let priced = try events(connection, count: 1)
        #expect(priced.last?.contains(#""unitPrice":"0.60""#) == true)
        #expect(priced.last?.contains(#""version":1"#) == true)
    }

    @Test("many streams on many carts are served by one watcher, each seeing its own cart")
    func manyStreams() throws {
        let shop = try TestShop()
        let ids = try (0..<6).map { _ in try shop.mint() }
        let connections = try ids.flatMap { id in try (0..<2).map { _ in try open(id, on: shop) } }
        for connection in connections { #expect(try events(connection, count: 1).count == 1) }
        for (index, id) in ids.enumerated() { try shop.service.add("apple", quantity: index + 1, to: id) }
        for (index, connection) in connections.enumerated() {
            let seen = try events(connection, count: 1)
            #expect(seen.first?.contains(#""quantity":\#(index / 2 + 1)"#) == true, "stream \(index)")
        }
    }

    @Test("an event stream tells a proxy in front not to buffer it, so that events are not held back")
    func unbufferedByProxies() throws {
        let shop = try TestShop()
        let connection = try TestConnection(port: shop.server.port, timeout: 5)
        connection.send(rawRequest("GET", "/v1/carts/\(try shop.mint())/events", host: shop.host))
        let head = try connection.readHead()
        #expect(head.status == 200)
        #expect(head.header("X-Accel-Buffering") == "no")
    }

    @Test("an idle stream gets a heartbeat event that names its interval, so a client can tell a silent stream")
    func heartbeat() throws {
        let shop = try TestShop { $0.streamHeartbeatInterval = .milliseconds(50) }
        let connection = try open(try shop.mint(), on: shop)
        var text = ""
        while text.split(separator: "\n\n").filter({ $0.hasPrefix("event: heartbeat\n") }).count < 2 {
            guard let chunk = try connection.readChunk() else { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        let events = text.split(separator: "\n\n").map(String.init)
        #expect(events.first == "retry: 1000")
        #expect(events.dropFirst().first?.hasPrefix("event: cart\ndata: {") == true)
        #expect(events.dropFirst(2).prefix(2).allSatisfy { $0 == "event: heartbeat\ndata: {\"interval\":0.05}" }, "\(events)")
    }

    @Test("the first heartbeat comes right after the first cart, so a client learns the interval at once")
    func firstHeartbeat() throws {
        let shop = try TestShop { $0.streamHeartbeatInterval = .seconds(300) }
        let connection = try open(try shop.mint(), on: shop)
        var text = ""
        while !text.contains("event: heartbeat\n") {
            guard let chunk = try connection.readChunk() else { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        let events = text.split(separator: "\n\n").map(String.init)
        #expect(events.count == 3 && events[1].hasPrefix("event: cart\n"), "\(events)")
        #expect(events.last == "event: heartbeat\ndata: {\"interval\":300}")
    }

    @Test("the heartbeat's interval is in seconds, as a JSON number without trailing zeros", arguments: [
        (Duration.seconds(15), "15"), (.milliseconds(1500), "1.5"), (.milliseconds(10), "0.01"),
        (.milliseconds(250), "0.25"), (.seconds(300), "300"), (.seconds(Int64.max), "9.223372036854776e+18"),
    ])
    func heartbeatInterval(_ interval: Duration, _ written: String) {
        #expect(
            String(decoding: CartAPI.heartbeatEvent(every: interval), as: UTF8.self)
                == "event: heartbeat\ndata: {\"interval\":\(written)}\n\n")
    }

    @Test("streams take at most three quarters of the connections: one more is 503 with Retry-After, and other requests still get in")
    func streamCap() throws {
        let shop = try TestShop {
            $0.maxConnections = 12
            $0.streamHeartbeatInterval = .milliseconds(50)
        }
        #expect(shop.server.api.maxEventStreams == 9)
        let id = try shop.mint()
        // A stream refused after it was made (If-Match names a tag it has not) gives its place back.
        for _ in 0..<12 { #expect(try shop.send("GET", "/v1/carts/\(id)/events", headers: [#"If-Match: "0""#]).status == 412) }
        var streams = try (0..<9).map { _ in try open(id, on: shop) }
        let (_, head) = try requestStream(id, on: shop)
        try #require(head.status == 503, "the stream past the cap was answered \(head.status)")
        #expect(head.header("Retry-After") == "10")
        let refused = try shop.send("GET", "/v1/carts/\(id)/events")
        #expect(refused.status == 503 && refused.errorCode == "too_many_streams", "\(refused)")
        #expect(try shop.send("GET", "/v1/health").status == 200)
        #expect(try shop.send("POST", "/v1/carts/\(id)/items", json: #"{"sku":"apple"}"#).status == 200)
        // A stream whose client went away (found by the next heartbeat) gives its place back.
        streams.removeLast()
        var reopened: TestConnection?
        for _ in 0..<200 where reopened == nil {
            let (connection, head) = try requestStream(id, on: shop)
            if head.status == 200 { reopened = connection } else { pause(milliseconds: 10) }
        }
        #expect(reopened != nil)
        #expect(try requestStream(id, on: shop).1.status == 503)
    }

    @Test("the stream cap is three quarters of the connections, rounded down, and at least one", arguments: [
        (1, 1), (2, 1), (3, 2), (4, 3), (12, 9), (1000, 750),
    ])
    func streamCapRule(_ connections: Int, _ streams: Int) {
        #expect(CartHTTPConfiguration(maxConnections: connections).maxEventStreams == streams)
    }

    @Test("a server of one connection serves one event stream")
    func oneConnectionOneStream() throws {
        let shop = try TestShop { $0.maxConnections = 1 }
        let connection = try open(try shop.mint(), on: shop)
        #expect(try events(connection, count: 1).count == 1)
    }

    @Test("openers refused at the cap never count, even for a moment, so the count never passes the cap")
    func refusedOpenersNeverCount() throws {
        let shop = try TestShop { $0.maxConnections = 4 }
        let api = shop.server.api
        let held = try (0..<api.maxEventStreams).map { _ in try api.openEventStream() }
        defer { held.forEach { $0.close() } }
        let openers = 3
        let finished = Atomic(0)
        let accepted = Atomic(0)
        let mostSeen = Atomic(0)
        runOnThreads(openers + 1) { index in
            guard index == 0 else {
                for _ in 0..<20_000 {
                    if let stream = try? api.openEventStream() {
                        accepted.add(1, ordering: .relaxed)
                        stream.close()
                    }
                }
                finished.add(1, ordering: .releasing)
                return
            }
            while finished.load(ordering: .acquiring) < openers {
                mostSeen.max(api.openEventStreams.withLock { $0 }, ordering: .relaxed)
            }
        }
        #expect(accepted.load(ordering: .relaxed) == 0)
        #expect(mostSeen.load(ordering: .relaxed) == api.maxEventStreams)
        #expect(api.openEventStreams.withLock { $0 } == api.maxEventStreams)
    }

    @Test("a stream refused at the cap has its access line, and one error line a window, as a store failure has")
    func refusalLogged() throws {
        let shop = try TestShop { $0.maxConnections = 2 }
        let id = try shop.mint()
        let stream = try open(id, on: shop)
        for _ in 0..<3 { #expect(try shop.send("GET", "/v1/carts/\(id)/events").errorCode == "too_many_streams") }
        withExtendedLifetime(stream) {}
        let refusals = shop.errorLog.all.filter { $0.contains("too_many_streams") }
        #expect(refusals == ["event streams: refused a new one with 503 too_many_streams: 1 open, the most this server serves at once"])
        let line = " GET /v1/carts/\(id)/events 503 "
        for _ in 0..<100 where shop.accessLog.all.filter({ $0.contains(line) }).count < 3 { pause(milliseconds: 10) }
        #expect(shop.accessLog.all.filter { $0.contains(line) }.count == 3, "\(shop.accessLog.all)")
    }

    @Test("stopping the server ends open streams cleanly, with the final chunk")
    func stop() throws {
        let shop = try TestShop()
        let connection = try open(try shop.mint(), on: shop)
        #expect(try events(connection, count: 1).count == 1)
        #expect(shop.server.stop(deadline: .seconds(5)))
        while let chunk = try connection.readChunk() { #expect(!chunk.isEmpty) }
    }
}
