@testable import CartSQLite
import CartTestSupport
import Foundation
import Testing

/// A server's request threads each keep reading through one connection of the pool, so its
/// pages and statements stay in the caches of the core the thread runs on.
@Suite("SQLite reader pool: a thread gets back the connection it used last")
struct ReaderAffinityTests {
    @Test("after two threads read at once, each gets back its own connection, not the last one returned")
    func threadsKeepTheirConnections() throws {
        let pool = SQLiteReaderPool(capacity: 2, wait: .seconds(5)) {
            try Database(path: ":memory:", busyTimeout: .seconds(1))
        }
        let helperHolds = DispatchSemaphore(value: 0)
        let mainReturned = DispatchSemaphore(value: 0)
        let helperDone = DispatchSemaphore(value: 0)
        let helperConnections = Recorder<ObjectIdentifier>()
        Thread.detachNewThread {
            defer { helperDone.signal() }
            try? pool.withReader { reader in
                helperConnections.record(ObjectIdentifier(reader))
                helperHolds.signal()
                // Returned after the main thread's, so it is the last one returned.
                _ = mainReturned.wait(timeout: .now() + 5)
            }
            try? pool.withReader { reader in helperConnections.record(ObjectIdentifier(reader)) }
        }
        try #require(helperHolds.wait(timeout: .now() + 10) == .success)
        let first = try pool.withReader { ObjectIdentifier($0) }
        mainReturned.signal()
        try #require(helperDone.wait(timeout: .now() + 10) == .success)
        let second = try pool.withReader { ObjectIdentifier($0) }

        let helper = helperConnections.all
        #expect(helper.count == 2)
        #expect(helper.first != first, "two reads at once share a connection")
        #expect(helper.first == helper.last, "the helper thread read through another connection")
        #expect(second == first, "the main thread read through the connection the helper returned last")
    }
}
