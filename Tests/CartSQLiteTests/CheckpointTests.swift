@testable import CartSQLite
import CartCore
import CartTestSupport
import Testing

/// A repository with reader connections (a server) checkpoints its write-ahead log on a
/// connection of its own, after a write lets go of the writing connection; the log still stays
/// near SQLite's 1,000 pages however long the writes go on.
@Suite("SQLite checkpoints of a server repository")
struct CheckpointTests {
    /// The write-ahead log's size in pages (of 4 KiB, each with its 24-byte frame header).
    func logPages(_ path: String) -> Int64 {
        FileInfo(path + "-wal").size / (4096 + 24)
    }

    /// A new store of five products behind a repository with `readers` reader connections,
    /// its directory (which lives as long as the value) and the file's path.
    func serverStore(readers: Int) throws -> (directory: TemporaryDirectory, path: String, service: CartService) {
        let directory = try TemporaryDirectory()
        let path = directory.path("cart.sqlite3")
        let service = CartService(repository: try SQLiteCartRepository(path: path, readers: readers), clock: fixedClock)
        try service.updateSettings(maxLineQuantity: 100_000)
        try service.seedCatalog(count: 5)
        return (directory, path, service)
    }

    @Test("one thread's stream of writes keeps the log near 1,000 pages")
    func oneWriter() throws {
        let (directory, path, service) = try serverStore(readers: 2)
        defer { withExtendedLifetime(directory) {} }
        var largest: Int64 = 0
        for index in 0..<1_500 {
            try service.add("sku-\(index % 5)", to: "cart-\(index % 40)")
            largest = max(largest, logPages(path))
        }
        #expect(largest > 900, "the writes never filled the log to the checkpoint's size")
        #expect(largest < 1_100)
        #expect(try (0..<40).map { try service.cart("cart-\($0)").totalItems }.reduce(0, +) == 1_500)
    }

    @Test("four threads writing at once, while a checkpoint copies the log, still let it start over")
    func concurrentWriters() throws {
        let (directory, path, service) = try serverStore(readers: 4)
        defer { withExtendedLifetime(directory) {} }
        let failures = Recorder<String>()
        let sizes = Recorder<Int64>()
        runOnThreads(4) { thread in
            do {
                for index in 0..<1_500 {
                    try service.add("sku-\(index % 5)", to: "cart-\(thread)-\(index % 10)")
                    if index % 10 == 0 { _ = try service.cart("cart-\(thread)-0") }
                    sizes.record(logPages(path))
                }
            } catch {
                failures.record("\(error)")
            }
        }
        #expect(failures.all.isEmpty)
        // The 6,000 writes fill a dozen logs of 1,000 pages; a log that never started over
        // would hold them all. While a checkpoint waits for the writer, the others add to the
        // log, so it may pass 2,000 pages, but no more than a few times.
        #expect(sizes.all.max() ?? 0 < 5_000)
        let total = try (0..<4).flatMap { thread in (0..<10).map { "cart-\(thread)-\($0)" } }
            .map { try service.cart($0).totalItems }.reduce(0, +)
        #expect(total == 6_000)
    }
}
