import CartPostgres
import Foundation
import Testing

@Suite("PostgreSQL connection pool")
struct PostgresConnectionPoolTests {
    @Test("8 threads × 200 checkouts share at most 4 connections", TestServer.requires())
    func manyThreads() throws {
        let pool = try PostgresConnectionPool(location: TestServer.location(), maximumConnections: 4)
        let backends = Collector<Int32>()
        let errors = onThreads(8) { thread in
            for round in 0..<200 {
                let expected = Int64(thread * 1000 + round)
                try pool.withConnection { connection in
                    let value = try connection.execute("SELECT $1::bigint", [.integer(expected)])[0].int64(0)
                    guard value == expected else { throw PostgresError(kind: .unexpectedResult, message: "got \(value)") }
                    backends.append(connection.backendProcessID)
                }
            }
        }
        #expect(errors.isEmpty, "\(errors)")
        #expect(backends.all.count == 1600)
        #expect(Set(backends.all).count <= 4)
        #expect(pool.idleConnections <= 4)
    }

    @Test("a checkout waits no longer than its timeout when every connection is busy", TestServer.requires())
    func checkoutTimeout() throws {
        let pool = try PostgresConnectionPool(
            location: TestServer.location(), maximumConnections: 1, checkoutTimeout: .milliseconds(100))
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? pool.withConnection { _ in
                holding.signal()
                release.wait()
            }
            done.signal()
        }
        holding.wait()
        let error = #expect(throws: PostgresError.self) { try pool.withConnection { _ in } }
        #expect(error?.isPoolTimeout == true)
        #expect(error?.description.contains("all 1 are in use") == true)
        release.signal()
        done.wait()
        let one = try pool.withConnection { connection in try connection.execute("SELECT 1")[0].int(0) }
        #expect(one == 1)
    }

    @Test("a pool refuses a size below 1")
    func badSize() throws {
        let location = try PostgresLocation("postgresql://nowhere/db")
        #expect(throws: PostgresError.self) { try PostgresConnectionPool(location: location, maximumConnections: 0) }
    }

    @Test("a connection terminated while idle is replaced at the next checkout", TestServer.requires())
    func idleConnectionReplaced() throws {
        let pool = try PostgresConnectionPool(location: TestServer.location(), maximumConnections: 1)
        let first = try pool.withConnection { connection in
            try connection.execute("SELECT 1")
            return connection.backendProcessID
        }
        let killer = try TestServer.connect()
        #expect(try killer.execute("SELECT pg_terminate_backend($1::int, 10000)", [.integer(Int64(first))])[0].bool(0))
        let (value, second) = try pool.withConnection { connection in
            (try connection.execute("SELECT 2")[0].int(0), connection.backendProcessID)
        }
        #expect(value == 2)
        #expect(second != first)
    }

    @Test("a connection that breaks in use is not handed out again", TestServer.requires())
    func brokenInUseReplaced() throws {
        let pool = try PostgresConnectionPool(location: TestServer.location(), maximumConnections: 1)
        var first: Int32 = 0
        let error = #expect(throws: PostgresError.self) {
            try pool.withConnection { connection in
                first = connection.backendProcessID
                try terminate(connection)
                try connection.execute("SELECT 1")
            }
        }
        #expect(error?.isConnectionFailure == true)
        #expect(pool.idleConnections == 0)
        let second = try pool.withConnection { connection in connection.backendProcessID }
        #expect(second != first)
    }

    @Test("a transaction left open is rolled back before the connection is reused", TestServer.requires())
    func leftOpenRolledBack() throws {
        let pool = try PostgresConnectionPool(location: TestServer.location(), maximumConnections: 1)
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try pool.withConnection { connection in
                try connection.execute("BEGIN")
                try connection.execute("CREATE TEMPORARY TABLE kept (id int)")
                throw Stop()
            }
        }
        let (status, tableGone) = try pool.withConnection { connection in
            (connection.transactionStatus, try connection.execute("SELECT to_regclass('pg_temp.kept') IS NULL")[0].bool(0))
        }
        #expect(status == .idle)
        #expect(tableGone)
    }

    @Test("across a server restart: clear errors while it is down, work again once it is back", TestServer.requires(TestServer.directory))
    func serverRestart() throws {
        let cluster = try PrivateCluster()
        let pool = try PostgresConnectionPool(
            location: PostgresLocation(cluster.url), maximumConnections: 2, checkoutTimeout: .seconds(5))
        let one = try pool.withConnection { connection in try connection.execute("SELECT 1")[0].int(0) }
        #expect(one == 1)

        try cluster.stop()
        let down = #expect(throws: PostgresError.self) {
            try pool.withConnection { connection in try connection.execute("SELECT 1") }
        }
        #expect(down?.isConnectionFailure == true)
        #expect(down?.description.contains("\n") == false)

        try cluster.start()
        let two = try pool.withConnection { connection in try connection.execute("SELECT 2")[0].int(0) }
        #expect(two == 2)
    }
}
