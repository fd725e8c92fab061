import CartCore
import Dispatch

/// Asks a served SQLite store for its change token at a fixed interval while the server runs:
/// each poll is when the repository looks whether the file it opened is still the one at its
/// path, and follows a store put in its place or refuses writes into a file nobody else sees
/// (`SQLiteCartRepository.changeToken()`). Event streams and health checks poll too; this
/// covers a server that has neither. A failure is logged when it begins and when it ends, not
/// once a poll.
final class StorePoller: Sendable {
    private let stopping = DispatchSemaphore(value: 0)

    /// Starts polling `repository` every `interval`; `failed` and `recovered` get the lines to log.
    init(
        repository: any CartRepository, every interval: Duration, failed: @escaping @Sendable (String) -> Void,
        recovered: @escaping @Sendable (String) -> Void
    ) {
        let pause = DispatchTimeInterval.milliseconds(max(1, Int(interval / .milliseconds(1))))
        DispatchQueue(label: "store-poller").async { [stopping] in
            var failing = false
            while stopping.wait(timeout: .now() + pause) == .timedOut {
                do {
                    _ = try repository.changeToken()
                    if failing { recovered("the store at its path is usable again; writes are taken again") }
                    failing = false
                } catch {
                    if !failing { failed("the store cannot be used: \(DisplayText.clause("\(error)")); writes are refused until it can") }
                    failing = true
                }
            }
        }
    }

    /// Stops polling. It does not wait for a poll in progress, which may be waiting for a
    /// request that holds the store past the server's stop (the process ends meanwhile).
    func stop() {
        stopping.signal()
    }
}
