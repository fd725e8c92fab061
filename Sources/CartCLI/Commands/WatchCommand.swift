import CartCore
import CartStore
import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `cart watch`: the cart, printed again each time any process changes it, until interrupted.
enum WatchCommand {
    static let interval = Option<Int>(
        "--interval", "ms", 10...3_600_000, help: "How often to check for changes, in milliseconds.", default: 500)

    static let spec = CommandSpec(
        "watch", abstract: "Show the cart, then again each time it changes.",
        discussion: """
            Changes from any process are seen within one --interval. Checking costs one tiny query; \
            the cart is read only after something changed. With --json, prints one 'cart show --json' \
            object per line, flushed at once, for programs that follow the cart. When the store \
            becomes unavailable after the first snapshot (a database server restarting, a network \
            cut), a line on stderr says so and watching goes on once it is back, a second line \
            saying that. A value another client stored in the cart or its products that no cart \
            can hold (a price out of range), at the start or later, is said once on stderr, and \
            the cart is shown once it is mended. A SQLite store replaced while watched (another store renamed onto its \
            path, after the old file's -wal and -shm are removed: SQLite would read the old log \
            into the new file) is followed; one deleted, or replaced by a file that is not a cart \
            store, ends watching with an error and status 1. Ctrl-C (SIGINT) or SIGTERM ends it \
            with status 0; a reader of its output that goes away ('cart watch | head -1') ends it \
            within half a second, silently with status 1, as for every command.
            """,
        options: [interval],
        action: { try run($0) })

    /// Prints every snapshot of `CartSnapshots` until SIGINT or SIGTERM, or until the reader of
    /// its output goes away.
    ///
    /// The snapshots are polled by a task; this thread only waits for events, prints, and
    /// between events looks for the output's reader, so the runner and its outputs are used by
    /// one thread, and the signal handler does no more than post an event. The signals'
    /// previous dispositions come back when it returns.
    static func run(_ runner: CommandRunner) throws {
        let snapshots = CartSnapshots(
            service: try runner.service(), cartID: runner.cartID, interval: .milliseconds(try runner[interval]))
        let events = BlockingQueue<WatchEvent>()
        let trap = SignalTrap([SIGINT, SIGTERM]) { events.post(.interrupted) }
        defer { trap.restore() }
        let retry = Duration.milliseconds(max(try runner[interval], 1_000))
        let repository = try runner.service().repository
        let feed = Task {
            var iterator = snapshots.makeAsyncIterator()
            var delivered = false
            while true {
                do {
                    guard let report = try await iterator.next() else { return events.post(.ended(nil)) }
                    delivered = true
                    events.post(.snapshot(report))
                } catch let error as StoredDataError {
                    // A value another client wrote that the service cannot use (a price out of
                    // range), from the start or later: the same iterator waits for the write
                    // that mends it.
                    events.post(.unreadable(error))
                } catch where delivered && ErrorCategory(of: error) == .unavailable {
                    // Only after a first snapshot: a store unavailable from the start is an error.
                    events.post(.unavailable(error))
                    while true {
                        do {
                            try await Task.sleep(for: retry)
                        } catch {
                            return events.post(.ended(nil))
                        }
                        do {
                            _ = try repository.changeToken()
                            break
                        } catch where ErrorCategory(of: error) == .unavailable {
                            continue
                        } catch {
                            return events.post(.ended(error))
                        }
                    }
                    // The same iterator goes on: it prints the cart again only if it changed.
                    events.post(.reconnected)
                } catch {
                    return events.post(.ended(error))
                }
            }
        }
        defer { feed.cancel() }
        // Nothing is written until the cart changes, perhaps hours later: between events, this
        // thread looks for the reader of a pipe going away, at most half a second apart.
        let readerCheck = DispatchTimeInterval.milliseconds(min(try runner[interval], 500))
        var printed = 0
        // The words of the unusable value waited for, so that a change that leaves it as it
        // was does not say it again.
        var waitingFor: String?
        while true {
            guard let event = events.next(within: readerCheck) else {
                if let descriptor = runner.stdout.descriptor, readerGone(descriptor) { throw OutputClosed() }
                continue
            }
            switch event {
            case .snapshot(let report):
                if waitingFor != nil {
                    try runner.stderr.write("The cart can be read again.\n")
                    try runner.stderr.flush()
                    waitingFor = nil
                }
                try show(report, after: printed, runner)
                printed += 1
            case .unreadable(let error):
                let (message, _) = ErrorReporter.describe(error, location: runner.displayLocation)
                let words = TextLayout.oneLine(message ?? "\(error)")
                guard words != waitingFor else { continue }
                waitingFor = words
                try runner.stderr.write("Waiting for the cart to be mended: \(words)\n")
                try runner.stderr.flush()
            case .unavailable(let error):
                // The watch tries again by itself.
                let (message, _) = ErrorReporter.describe(error, location: runner.displayLocation, retrying: true)
                try runner.stderr.write("Waiting for the store: \(TextLayout.oneLine(message ?? "\(error)"))\n")
                try runner.stderr.flush()
            case .reconnected:
                try runner.stderr.write("The store is back.\n")
                try runner.stderr.flush()
            case .interrupted:
                // At once, even while the feed waits on a store that does not answer; the
                // process ends with it.
                return
            case .ended(let error):
                if let error { throw error }
                return
            }
        }
    }

    /// Whether the reader of the pipe or socket `descriptor` writes to has gone away: `poll`
    /// then reports an error or a hang-up on it. A file never does; a terminal only once it
    /// hangs up. (`POLLOUT` is asked for because some systems report nothing on a descriptor
    /// polled for no event; only the error and the hang-up count.)
    static func readerGone(_ descriptor: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        return poll(&entry, 1, 0) == 1 && entry.revents & Int16(POLLERR | POLLHUP) != 0
    }

    /// One snapshot with its problems, as `cart show` prints it: a JSON line, or the table
    /// after a blank line; flushed at once so whoever reads a pipe sees it now.
    private static func show(_ report: CartReport, after printed: Int, _ runner: CommandRunner) throws {
        if runner.json {
            try runner.emit(report)
        } else {
            if printed > 0 { try runner.line() }
            try CartCommands.printCart(report, runner)
        }
        try runner.stdout.flush()
    }
}
