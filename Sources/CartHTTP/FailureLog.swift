import Synchronization

/// The error log's lines for failures a client is told of only by a code (a store's, or a
/// server limit's), at most one of each kind per `window`: while a store is out of reach, or
/// a limit is reached, every request fails the same way, and a line for each would bury the
/// log. The first failure of a kind is written; the rest within the window are counted, and
/// the first one after it says how many were left out.
final class FailureLog: Sendable {
    private struct Quiet {
        let until: ContinuousClock.Instant
        var left: Int
    }

    private let log: @Sendable (String) -> Void
    private let window: Duration
    private let quiet = Mutex<[String: Quiet]>([:])

    init(window: Duration = .seconds(10), log: @escaping @Sendable (String) -> Void) {
        self.window = window
        self.log = log
    }

    /// Logs `line`, a failure of kind `kind` (a store error's category, a refusal's code),
    /// unless one of that kind was logged less than `window` ago.
    func record(_ kind: String, _ line: String, now: ContinuousClock.Instant = .now) {
        let left: Int? = quiet.withLock { quiet in
            if var current = quiet[kind], now < current.until {
                current.left += 1
                quiet[kind] = current
                return nil
            }
            let left = quiet[kind]?.left ?? 0
            quiet[kind] = Quiet(until: now + window, left: 0)
            return left
        }
        guard let left else { return }
        log(left == 0 ? line : line + " (\(left) more of its kind left out since the last such line)")
    }
}
