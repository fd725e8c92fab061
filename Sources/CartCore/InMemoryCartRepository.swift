#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A complete `CartRepository` that keeps everything in this process's memory: nothing
/// survives the process. Use it for previews, tests, and short-lived tools.
///
/// Units of work are serialized by one lock. A write unit records how to undo each change it
/// makes and undoes them all, newest first, if its body throws, so a failed unit leaves no
/// trace and a successful one costs no copying.
public final class InMemoryCartRepository: CartRepository, @unchecked Sendable {
    // @unchecked: `state` is only touched while `lock` is held.
    private let lock = Lock()
    private let state: InMemoryState

    /// Creates an empty store with the given settings.
    public init(settings: StoreSettings = .defaults) {
        state = InMemoryState(settings: settings)
    }

    public func write<Result>(_ body: (any CartStorageWriter) throws -> Result) throws -> Result {
        try lock.withLock {
            let storage = InMemoryStorage(state: state, recordsUndo: true)
            do {
                let result = try body(storage)
                if storage.changed { state.changeCounter &+= 1 }
                return result
            } catch {
                storage.rollBack()
                throw error
            }
        }
    }

    public func read<Result>(_ body: (any CartStorageReader) throws -> Result) throws -> Result {
        try lock.withLock { try body(InMemoryStorage(state: state, recordsUndo: false)) }
    }

    public func changeToken() throws -> Int64 {
        lock.withLock { state.changeCounter }
    }
}

/// Everything an `InMemoryCartRepository` holds.
final class InMemoryState {
    struct LineSlot {
        var quantity: Int
        var position: Int
    }

    struct StoredCart {
        var header: CartHeader?
        var lines: [String: LineSlot] = [:]
        var nextPosition = 0

        var orderedLines: [(sku: String, quantity: Int)] {
            lines.sorted { $0.value.position < $1.value.position }.map { ($0.key, $0.value.quantity) }
        }
    }

    var settings: StoreSettings
    var products: [String: Product] = [:]
    var carts: [String: StoredCart] = [:]
    var orders: [Order] = []
    var orderNumberByKey: [String: Int64] = [:]
    /// Whether `orders` (kept in number order) is also in placedAt order, as it is unless the
    /// clock went backwards; history then lists it without sorting.
    var ordersAreInTimeOrder = true
    var changeCounter: Int64 = 0

    init(settings: StoreSettings) {
        self.settings = settings
    }
}
