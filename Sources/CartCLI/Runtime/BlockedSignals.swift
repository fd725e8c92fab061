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
final class BlockedSignals {
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
        while hasPending() { _ = wait() }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
    }

    /// Whether one of the signals is pending, so that `wait()` returns at once.
    private func hasPending() -> Bool {
        var pending = sigset_t()
        sigpending(&pending)
        return (1..<32).contains { sigismember(&signals, $0) == 1 && sigismember(&pending, $0) == 1 }
    }
}
