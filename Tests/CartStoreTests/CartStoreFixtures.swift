import CartCore
import CartInMemory
import CartSQLite
import CartStore
import CartTestSupport
import Foundation
import Observation
import Synchronization

/// A catalog every store test starts from: two plain products and one with a single unit.
func makeService(_ repository: any CartRepository = InMemoryCartRepository()) throws -> CartService {
    let service = CartService(repository: repository)
    try service.addProduct(Product(sku: "apple", name: "Apple", price: Money(minorUnits: 100, currency: .usd)))
    try service.addProduct(Product(sku: "pear", name: "Pear", price: Money(minorUnits: 250, currency: .usd)))
    try service.addProduct(Product(sku: "rare", name: "Rare", price: Money(minorUnits: 900, currency: .usd), stock: 1))
    return service
}

/// The names of the observed properties that told their observers they will change.
final class NotificationLog: Sendable {
    private let names = Mutex<[String]>([])

    func record(_ name: String) { names.withLock { $0.append(name) } }

    var recorded: [String] { names.withLock { $0 } }
}

/// Tracks each observable property of `store` on its own, as separate views reading one
/// property each would, and logs which ones are told of a change.
@MainActor
func trackEachProperty(of store: CartStore, into log: NotificationLog, prefix: String = "") {
    withObservationTracking { _ = store.items } onChange: { log.record(prefix + "items") }
    withObservationTracking { _ = store.totalItems } onChange: { log.record(prefix + "totalItems") }
    withObservationTracking { _ = store.subtotal } onChange: { log.record(prefix + "subtotal") }
    withObservationTracking { _ = store.version } onChange: { log.record(prefix + "version") }
    withObservationTracking { _ = store.lastError } onChange: { log.record(prefix + "lastError") }
}

/// The first element of `sequence` that satisfies `predicate`, or `nil` if none arrives within
/// `timeout`. The timeout is generous by design: it bounds a failing test, it does not measure
/// speed.
func firstElement<Elements: AsyncSequence & Sendable>(
    of sequence: Elements, within timeout: Duration = .seconds(30),
    where predicate: @escaping @Sendable (Elements.Element) -> Bool
) async throws -> Elements.Element? where Elements.Element: Sendable {
    try await withThrowingTaskGroup(of: Elements.Element?.self) { group in
        group.addTask {
            for try await element in sequence where predicate(element) { return element }
            return nil
        }
        group.addTask {
            try? await Task.sleep(for: timeout)
            return nil
        }
        let first = try await group.next() ?? nil
        group.cancelAll()
        return first
    }
}

/// A database file in a fresh temporary directory, removed with its WAL files when released.
final class TemporaryDatabase: Sendable {
    let directory: URL
    let path: String

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("cart-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent("cart.sqlite3").path
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A new connection to the file, as another process would open.
    func connection() throws -> SQLiteCartRepository {
        try SQLiteCartRepository(path: path)
    }

    /// Runs `sql` on the file in the sqlite3 shell, as another client would write.
    func sqlite3(_ sql: String) throws {
        let run = try ProgramRun.run("/usr/bin/sqlite3", [path, sql])
        guard run.status == 0, run.stderr.isEmpty else { throw ShellFailed(run: run) }
    }

    struct ShellFailed: Error {
        let run: ProgramRun
    }
}
