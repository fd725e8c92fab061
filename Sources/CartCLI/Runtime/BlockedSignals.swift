#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Signals such as SIGINT and SIGTERM held pending instead of acted on, for a command whose
/// main thread waits for one (`cart serve`): blocked on the calling thread, and so on every
/// thread it starts afterwards, which inherit its mask. A signal sent to the process then
/// reaches `wait()` alone, never a server thread nor the default action.
///
/// Block them before anything starts a thread: a thread started before would take the
/// signal with its default action (the end of the process).
final class BlockedSignals: @unchecked Sendable {
    // @unchecked: the sets are written by `init` alone; `wait()` may run on two threads at once,
    // and each signal reaches one of them.
    private var signals = sigset_t()
    private var previous = sigset_t()

    /// Blocks `numbers` on the calling thread.
    init(_ numbers: [Int32]) {
        sigemptyset(&signals)
        for number in numbers { sigaddset(&signals, number) }
        pthread_sigmask(SIG_BLOCK, &signals, &previous)
    }

    /// Waits until one of the signals arrives, and returns it.
    func wait() -> Int32 {
        var received: Int32 = 0
        while sigwait(&signals, &received) != 0 {}
        return received
    }

    /// Takes the signals that arrived since the last `wait()` off the queue, then gives the
    /// thread its previous mask back: a second Ctrl-C while the command was finishing does
    /// not end the process with another status once it is done.
    func restore() {
        while takePending() != nil {}
        pthread_sigmask(SIG_SETMASK, &previous, nil)
    }

    /// One of the signals already pending, taken off the queue without waiting; nil when none
    /// is. Never blocks, also while another thread waits in `wait()` and takes the signal first.
    private func takePending() -> Int32? {
        #if os(Linux)
            var now = timespec()
            let number = sigtimedwait(&signals, nil, &now)
            return number > 0 ? number : nil
        #else
            var pending = sigset_t()
            sigpending(&pending)
            guard (1..<32).contains(where: { sigismember(&signals, $0) == 1 && sigismember(&pending, $0) == 1 }) else {
                return nil
            }
            return wait()
        #endif
    }
}
