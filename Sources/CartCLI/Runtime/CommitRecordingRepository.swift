import CartCore
import Synchronization

/// A repository that remembers whether a write unit committed, so that a command whose output
/// fails afterwards can say that its change was saved (and a retry would make it twice).
final class CommitRecordingRepository: CartRepository {
    private let base: any CartRepository
    private let committed = Atomic<Bool>(false)

    init(_ base: any CartRepository) {
        self.base = base
    }

    /// Whether any write unit through this repository has committed.
    var hasCommitted: Bool { committed.load(ordering: .acquiring) }

    func write<Result>(_ body: (any CartStorageWriter) throws -> Result) throws -> Result {
        let result = try base.write(body)
        committed.store(true, ordering: .releasing)
        return result
    }

    func read<Result>(_ body: (any CartStorageReader) throws -> Result) throws -> Result {
        try base.read(body)
    }

    func changeToken() throws -> Int64 {
        try base.changeToken()
    }

    func checkWritable() throws {
        try base.checkWritable()
    }
}
