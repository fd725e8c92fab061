import CartCore
import CartPostgres
import Foundation
import Testing

@Suite("PostgreSQL change token and server restarts")
struct PostgresChangeFeedTests {
    static let fig = Product(sku: "fig", name: "Fig", price: Money(minorUnits: 40, currency: .usd))

    @Test("the change token moves when anyone commits a change to the store, and only then", TestServer.requires())
    func tokenMoves() throws {
        let schema = try TestSchema()
        defer { try? schema.drop() }
        let watcher = try schema.repository()
        let writer = CartService(repository: try schema.repository())
        let first = try watcher.changeToken()
        #expect(try watcher.changeToken() == first, "nothing happened")

        try writer.addProduct(Self.fig)
        let afterWrite = try watcher.changeToken()
        #expect(afterWrite != first, "another repository committed")

        _ = try writer.products()
        _ = try writer.cart("alice")
        #expect(throws: CartError.self) { try writer.remove("fig", from: "alice") }
        #expect(try watcher.changeToken() == afterWrite, "reads and refused changes commit nothing")

        let other = try TestSchema()
        defer { try? other.drop() }
        try CartService(repository: other.repository()).addProduct(Self.fig)
        #expect(try watcher.changeToken() == afterWrite, "a store in another schema changed")

        try CartService(repository: watcher).add("fig", to: "alice")
        let afterOwn = try watcher.changeToken()
        #expect(afterOwn != afterWrite, "the repository itself committed")

        try schema.execute("UPDATE products SET name = 'Figs' WHERE sku = 'fig'")
        #expect(try watcher.changeToken() != afterOwn, "another client wrote the tables directly")
    }

    @Test("the change token is read on a new connection when the server ended the listening session meanwhile", TestServer.requires())
    func tokenAfterSessionEnded() throws {
        let schema = try TestSchema()
        defer { try? schema.drop() }
        let name = "feed-" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let repository = try PostgresCartRepository(url: schema.url + "&application_name=" + name)
        let before = try repository.changeToken()
        let ended = try PostgresConnection(schema.url).execute(
            "SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity WHERE application_name = $1", [.text(name)])
        #expect(ended.count >= 1, "the listening session, and the pool's idle one")
        #expect(try repository.changeToken() != before, "a new listening session starts over, as after a restart")
        try CartService(repository: repository).addProduct(Self.fig)
    }

    @Test("the readiness checks take no pool connection: they answer while a unit holds the only one", TestServer.requires())
    func readinessBesideBusyPool() throws {
        let schema = try TestSchema()
        defer { try? schema.drop() }
        let repository = try schema.repository(StoreOptions(busyTimeout: .seconds(2), maximumConnections: 1))
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), ended = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            defer { ended.signal() }
            _ = try? repository.read { _ in
                holding.signal()
                release.wait()
            }
        }
        holding.wait()
        defer {
            release.signal()
            ended.wait()
        }
        // Waiting for the pool, either would fail as busy after the 2-s timeout.
        _ = try repository.changeToken()
        try repository.checkWritable()
    }

    @Test("across a server restart: units and the change token fail as unavailable, then work again", TestServer.requires(TestServer.directory))
    func serverRestart() throws {
        let cluster = try PrivateCluster()
        let repository = try PostgresCartRepository(url: cluster.url, options: StoreOptions(busyTimeout: .seconds(3)))
        let service = CartService(repository: repository)
        try service.addProduct(Self.fig)
        try service.add("fig", to: "alice")
        let before = try repository.changeToken()

        try cluster.stop()
        for call in [{ _ = try service.add("fig", to: "alice") }, { _ = try service.cart("alice") }, { _ = try repository.changeToken() }] {
            let error = #expect(throws: (any Error).self) { try call() }
            #expect(error.map(ErrorCategory.init(of:)) == .unavailable, "\(String(describing: error))")
            #expect(error.map { String(describing: $0).contains("\n") } == false)
        }

        try cluster.start()
        try service.add("fig", to: "alice")
        #expect(try service.cart("alice").lines.map(\.quantity) == [2])
        #expect(try repository.changeToken() != before, "changes made while nothing listened count")
    }
}
