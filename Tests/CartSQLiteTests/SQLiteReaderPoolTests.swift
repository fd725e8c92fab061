import CartCore
import CartSQLite
import CartTestSupport
import Foundation
import Testing

/// A repository with reader connections serves reads while its writing connection is inside a
/// unit, as a server's threads need.
@Suite("SQLite reader connections")
struct SQLiteReaderPoolTests {
    @Test("a read completes while a write unit holds the writing connection, and sees the last commit")
    func readDoesNotWaitForWrite() throws {
        let directory = try TemporaryDirectory()
        let repository = try SQLiteCartRepository(path: directory.path("cart.sqlite3"), readers: 2)
        let service = CartService(repository: repository, clock: fixedClock)
        try service.seedCatalog(count: 2)
        try service.add("sku-0", to: "alice")

        let inside = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let writer = DispatchGroup()
        writer.enter()
        Thread.detachNewThread {
            defer { writer.leave() }
            _ = try? service.repository.write { storage in
                try storage.insertCartLine(cartID: "alice", sku: "sku-1", quantity: 1, position: 2)
                inside.signal()
                _ = release.wait(timeout: .now() + 5)
                throw CancellationError()
            }
        }
        inside.wait()
        // The writing connection is inside its unit: a read through it would wait for release.
        let started = ContinuousClock.now
        let cart = try service.cart("alice")
        let waited = ContinuousClock.now - started
        release.signal()
        writer.wait()
        #expect(cart.lines.map(\.sku) == ["sku-0"])
        #expect(waited < .seconds(4), "the read waited for the write unit")
    }

    @Test("many threads reading and writing through a pool end with every write counted")
    func manyThreads() throws {
        let directory = try TemporaryDirectory()
        let service = CartService(
            repository: try SQLiteCartRepository(path: directory.path("cart.sqlite3"), readers: 3), clock: fixedClock)
        try service.updateSettings(maxLineQuantity: 1000)
        try service.seedCatalog(count: 1)
        let group = DispatchGroup()
        let failures = Collector<any Error>()
        for thread in 0..<8 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                do {
                    for _ in 0..<50 {
                        if thread % 2 == 0 { try service.add("sku-0", to: "shared") } else { _ = try service.cart("shared") }
                    }
                } catch {
                    failures.append(error)
                }
            }
        }
        group.wait()
        #expect(failures.first == nil)
        #expect(try service.cart("shared").totalItems == 200)
    }
}
