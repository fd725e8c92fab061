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
    // The two storage objects are reused by every unit (units never overlap), so a unit
    // allocates nothing of its own.
    private let lock = Lock()
    private let state: InMemoryState
    private let writer: InMemoryStorage
    private let reader: InMemoryStorage

    /// Creates an empty store with the given settings.
    public init(settings: StoreSettings = .defaults) {
        state = InMemoryState(settings: settings)
        writer = InMemoryStorage(state: state, recordsUndo: true)
        reader = InMemoryStorage(state: state, recordsUndo: false)
    }

    public func write<Result>(_ body: (any CartStorageWriter) throws -> Result) throws -> Result {
        try lock.withLock {
            writer.begin()
            do {
                let result = try body(writer)
                if writer.changed { state.changeCounter &+= 1 }
                writer.commit()
                return result
            } catch {
                writer.rollBack()
                throw error
            }
        }
    }

    public func read<Result>(_ body: (any CartStorageReader) throws -> Result) throws -> Result {
        try lock.withLock { try body(reader) }
    }

    public func changeToken() throws -> Int64 {
        lock.withLock { state.changeCounter }
    }
}
