#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain mutual-exclusion lock for the backends' units of work.
///
/// `Synchronization.Mutex` requires a `sending` result from its body, which a generic unit of
/// work cannot promise, so the repositories use this small pthread lock instead; each one
/// documents the state the lock guards.
package final class Lock: @unchecked Sendable {
    // @unchecked: the pthread mutex is the synchronization; it lives at a stable address.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` while holding the lock.
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Runs `body` while holding the lock if it is free; returns `nil` at once, without
    /// running it, if any thread holds it, the calling one included.
    package func withLockIfAvailable<Result>(_ body: () throws -> Result) rethrows -> Result? {
        guard pthread_mutex_trylock(mutex) == 0 else { return nil }
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
