/// A line of progress on a terminal, rewritten in place as work goes on and cleared when it
/// is done; nothing at all when the output is not a terminal, so logs and pipes stay clean.
///
/// Updates are shown at most once per `interval`, the first only after `interval`, so work
/// that ends sooner shows nothing.
final class ProgressLine {
    private let output: any CommandOutput
    private let interval: Duration
    private let clock = ContinuousClock()
    private var nextShown: ContinuousClock.Instant
    private var isShowing = false

    init(on output: any CommandOutput, interval: Duration = .milliseconds(500)) {
        self.output = output
        self.interval = interval
        nextShown = clock.now + interval
    }

    /// Shows `text()` in place of the line shown before, if the interval has passed.
    func update(_ text: () -> String) {
        guard output.isTerminal, clock.now >= nextShown else { return }
        // A failed write to stderr must not end the work it reports on.
        try? output.write("\r" + text() + Self.clearToEnd)
        try? output.flush()
        isShowing = true
        nextShown = clock.now + interval
    }

    /// Clears the line, if one is shown.
    func finish() {
        guard isShowing else { return }
        try? output.write("\r" + Self.clearToEnd)
        try? output.flush()
        isShowing = false
    }

    /// The terminal's "erase to the end of the line".
    private static let clearToEnd = "\u{1B}[K"
}
