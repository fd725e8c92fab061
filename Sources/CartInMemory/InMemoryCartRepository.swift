public import CartCore

/// A complete `CartRepository` that keeps everything in this process's memory, in plain Swift
/// collections: nothing survives the process. For tests, previews and short-lived tools.
///
/// ```swift
/// let service = CartService(repository: InMemoryCartRepository(), clock: { fixedDate })
/// try service.addProduct(Product(sku: "apple", name: "Apple", price: Money(minorUnits: 125, currency: .usd)))
/// try service.add("apple", quantity: 2, to: "alice")
/// ```
///
/// Units of work are serialized by one lock, so the repository serves many threads. A unit that
/// throws is undone from a log of what each of its changes replaced.
public final class InMemoryCartRepository: CartRepository, @unchecked Sendable {
    // @unchecked: `storage` is only touched while `lock` is held.
    private let lock = Lock()
    private let storage: InMemoryStorage

    /// Creates an empty store with the default settings.
    public init() {
        storage = InMemoryStorage(settings: .defaults)
    }

    /// Creates an empty store with the given settings.
    ///
    /// - Throws: `CartError.invalidSetting` for a setting outside its range.
    public init(settings: StoreSettings) throws(CartError) {
        storage = InMemoryStorage(settings: try settings.validated())
    }

    public func write<Result>(_ body: (any CartStorageWriter) throws -> Result) throws -> Result {
        try lock.withLock {
            do {
                let result = try body(storage)
                try storage.state.commit()
                return result
            } catch {
                storage.state.rollBack()
                throw error
            }
        }
    }

    public func read<Result>(_ body: (any CartStorageReader) throws -> Result) throws -> Result {
        try lock.withLock { try body(storage) }
    }

    /// How many units have committed a change.
    public func changeToken() throws -> Int64 {
        lock.withLock { storage.state.commits }
    }
}
