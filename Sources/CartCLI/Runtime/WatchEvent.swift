import CartCore

/// What the thread running `cart watch` hears from the snapshot task and the signal handler.
enum WatchEvent: Sendable {
    /// The cart and its problems as they are now.
    case snapshot(CartReport)
    /// SIGINT or SIGTERM arrived: stop watching.
    case interrupted
    /// The snapshots ended: after an interruption (`nil`), or with the error of a read.
    case ended((any Error)?)
}
