import CartCore
import CartInMemory
import Synchronization

/// An in-memory repository that counts what it is asked and can be told to fail, to show what
/// a store reads and how it reports storage errors.
final class ProbeRepository: CartRepository {
    struct Counts: Equatable {
        var reads = 0
        var writes = 0
        var tokens = 0
    }

    /// The error every call throws while `failing` is set: a store that cannot be reached.
    struct Outage: CategorizedError, CustomStringConvertible {
        var category: ErrorCategory { .unavailable }
        var description: String { "disk unplugged" }
    }

    private let base = InMemoryCartRepository()
    private let state = Mutex((counts: Counts(), failing: false, failingAfterWrite: false))

    var counts: Counts { state.withLock { $0.counts } }

    func setFailing(_ failing: Bool) { state.withLock { $0.failing = failing } }

    /// Lets the next write commit, then fails every call, as a store lost just after a commit.
    func failAfterNextWrite() { state.withLock { $0.failingAfterWrite = true } }

    private func count(_ call: (inout Counts) -> Void) throws {
        try state.withLock { state in
            if state.failing { throw Outage() }
            call(&state.counts)
        }
    }

    func write<Result>(_ body: (any CartStorageWriter) throws -> Result) throws -> Result {
        try count { $0.writes += 1 }
        let result = try base.write(body)
        state.withLock { state in
            if state.failingAfterWrite { (state.failing, state.failingAfterWrite) = (true, false) }
        }
        return result
    }

    func read<Result>(_ body: (any CartStorageReader) throws -> Result) throws -> Result {
        try count { $0.reads += 1 }
        return try base.read(body)
    }

    func changeToken() throws -> Int64 {
        try count { $0.tokens += 1 }
        return try base.changeToken()
    }
}
