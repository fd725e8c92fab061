#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A fixed set of threads of its own that run blocking work for async callers, so that a unit
/// of work waiting on a lock, a disk or a database server never holds a thread of Swift's
/// cooperative pool.
///
/// ```swift
/// let threads = BlockingThreads(count: 8)
/// let cart = try await threads.run { try service.cart("alice") }
/// ```
///
/// Jobs run in the order they were submitted, at most `count` at a time; the threads live as
/// long as the process.
public final class BlockingThreads: Sendable {
    /// How many jobs run at once: the threads that started, of those asked for.
    public let count: Int
    private let queue: JobQueue

    /// Starts `count` threads (at least one).
    public init(count: Int) {
        let queue = JobQueue()
        self.queue = queue
        self.count = (0..<max(1, count)).filter { _ in queue.startWorker() }.count
    }

    /// Threads shared by every `AsyncCartService` that is not given its own: eight, enough to
    /// keep a small connection pool busy.
    public static let shared = BlockingThreads(count: 8)

    /// Runs `body` on one of the threads and returns its result. Cancelling the calling task
    /// neither interrupts a job that has started nor drops one still waiting for a thread: the
    /// job runs, as the synchronous call would have, and its result or error is returned, so a
    /// change the caller asked for is made or refused, never left to the timing of a cancel.
    ///
    /// - Throws: what `body` throws.
    public func run<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        // Where the system started no thread at all, the job runs on the caller's thread
        // rather than waiting for ever.
        guard count > 0 else { return try body() }
        return try await withCheckedThrowingContinuation { continuation in
            queue.submit { continuation.resume(with: Swift.Result { try body() }) }
        }
    }
}

/// The jobs waiting for a thread, guarded by a pthread mutex and condition variable, the
/// primitives a thread that blocks must wait on.
///
/// One job waits for every caller awaiting `run`, and a task group can start any number of
/// those, so the queue may hold a hundred thousand jobs: taking one costs the same however
/// many wait.
final class JobQueue: @unchecked Sendable {
    // @unchecked: `arrived` and `due` are only touched while `mutex` is held.
    typealias Job = @Sendable () -> Void

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let available = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Jobs no thread has taken yet, in two lists: those submitted, oldest first, and those
    /// next to be taken, oldest last, so that each is taken from the end of a list.
    private var arrived: [Job] = []
    private var due: [Job] = []

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(available, nil)
    }

    func submit(_ job: @escaping Job) {
        pthread_mutex_lock(mutex)
        arrived.append(job)
        pthread_cond_signal(available)
        pthread_mutex_unlock(mutex)
    }

    /// Waits for the oldest job and takes it.
    private func take() -> Job {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while arrived.isEmpty && due.isEmpty { pthread_cond_wait(available, mutex) }
        if due.isEmpty {
            due = arrived.reversed()
            arrived.removeAll(keepingCapacity: true)
        }
        // The queue lets go of a job as a thread takes it.
        return due.removeLast()
    }

    /// Starts a detached thread that runs jobs for as long as the process lives; false when
    /// the system refuses one (too many threads).
    func startWorker() -> Bool {
        let context = Unmanaged.passRetained(self).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let error = pthread_create(&thread, nil, { context in
            #if !canImport(Darwin)
            guard let context else { return nil }
            #endif
            let queue = Unmanaged<JobQueue>.fromOpaque(context).takeRetainedValue()
            while true { queue.take()() }
        }, context)
        guard error == 0 else {
            Unmanaged<JobQueue>.fromOpaque(context).release()
            return false
        }
        #if canImport(Darwin)
        if let thread { pthread_detach(thread) }
        #else
        pthread_detach(thread)
        #endif
        return true
    }
}
