import CSQLite
import CartCore
import Dispatch

/// Connections that only read, for a repository that serves many threads: in WAL mode each
/// reads its own snapshot while the writer connection writes, so reads do not queue behind
/// writes (GRDB's `DatabasePool` model). Connections open on first use, up to `capacity`.
final class SQLiteReaderPool: @unchecked Sendable {
    // @unchecked: `idle` is only touched while `lock` is held; each connection is
    // used by one thread at a time, inside `withReader`.
    private let lock = Lock()
    private let slots: DispatchSemaphore
    /// How long a read waits for a free reader, in seconds.
    private let wait: Double
    private let open: () throws -> Database
    private var idle: [Database] = []

    /// A pool of at most `capacity` readers, each opened by `open`; a read waits up to `wait`
    /// for a free one.
    init(capacity: Int, wait: Duration, open: @escaping () throws -> Database) {
        slots = DispatchSemaphore(value: capacity)
        self.wait = Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18
        self.open = open
    }

    /// Runs `body` with a reader of its own.
    ///
    /// - Throws: `DatabaseError` (busy) when no reader came free within the wait, the error of
    ///   opening one, or what `body` throws.
    func withReader<Result>(_ body: (Database) throws -> Result) throws -> Result {
        guard slots.wait(timeout: .now() + wait) == .success else {
            throw DatabaseError(
                extendedResultCode: SQLITE_BUSY, message: "no reader connection came free",
                explanation: "every reader connection of this repository stayed busy past the busy timeout")
        }
        defer { slots.signal() }
        let reader = try lock.withLock { idle.popLast() } ?? (try open())
        defer { lock.withLock { idle.append(reader) } }
        return try body(reader)
    }
}
