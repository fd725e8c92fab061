import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns signals such as SIGINT and SIGTERM into calls of a handler on a dispatch queue, for
/// as long as it is installed, instead of their default action of ending the process.
///
/// The handler runs on a dispatch queue, not inside the signal, so it may take locks and
/// allocate. `restore()` gives the signals their previous dispositions back, so a command run
/// in-process leaves no trace on its host.
final class SignalTrap {
    private let signals: [Int32]
    private let previous: [(@convention(c) (Int32) -> Void)?]
    private let sources: [any DispatchSourceSignal]

    /// Starts delivering `signals` to `handler`.
    init(_ signals: [Int32], handler: @escaping @Sendable () -> Void) {
        self.signals = signals
        // Ignored, the signal no longer ends the process; the dispatch source still sees it.
        previous = signals.map { signal($0, SIG_IGN) }
        let registered = DispatchGroup()
        sources = signals.map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: handler)
            registered.enter()
            source.setRegistrationHandler { registered.leave() }
            source.resume()
            return source
        }
        // Sources are armed asynchronously; until then an ignored signal would be lost.
        registered.wait()
    }

    /// Stops delivering the signals and puts their previous dispositions back.
    func restore() {
        for source in sources { source.cancel() }
        for (number, handler) in zip(signals, previous) { signal(number, handler) }
    }
}
