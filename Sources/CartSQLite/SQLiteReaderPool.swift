import CSQLite
import CartCore
import Dispatch
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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
    private let open: @Sendable () throws -> Database
    /// The connections no read is using, each with the thread that used it last.
    private var idle: [(reader: Database, thread: pthread_t)] = []
    /// How many times `closeConnections()` was called: a connection taken or opened before
    /// the last call is closed when its read ends, not kept.
    private var epoch = 0

    /// A pool of at most `capacity` readers, each opened by `open`; a read waits up to `wait`
    /// for a free one.
    init(capacity: Int, wait: Duration, open: @escaping @Sendable () throws -> Database) {
        slots = DispatchSemaphore(value: capacity)
        self.wait = wait / .seconds(1)
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
        let thread = pthread_self()
        let (taken, epoch) = lock.withLock { (takeIdle(preferring: thread), self.epoch) }
        let reader = try taken ?? open()
        defer { lock.withLock { if epoch == self.epoch { idle.append((reader, thread)) } } }
        return try body(reader)
    }

    /// Closes every connection, each idle one now and each in use when its read ends, so that
    /// reads open the file again: the file at the path is another one now.
    func closeConnections() {
        lock.withLock {
            epoch += 1
            idle.removeAll()
        }
    }

    /// An idle connection, the one `thread` used last if it is idle: that connection's pages
    /// and prepared statements are likeliest to be in the caches of the core the thread runs
    /// on, which a server's fixed request threads keep reading through. Called with `lock` held.
    private func takeIdle(preferring thread: pthread_t) -> Database? {
        guard let index = idle.lastIndex(where: { pthread_equal($0.thread, thread) != 0 }) ?? idle.indices.last else {
            return nil
        }
        return idle.remove(at: index).reader
    }
}
