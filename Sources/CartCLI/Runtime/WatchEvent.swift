import CartCore

/// What the thread running `cart watch` hears from the snapshot task and the signal handler.
enum WatchEvent: Sendable {
    /// The cart and its problems as they are now.
    case snapshot(CartReport)
    /// SIGINT or SIGTERM arrived: stop watching.
    case interrupted
    /// A read failed because the store is unavailable for now (a database server restarting,
    /// a network cut); the task tries again.
    case unavailable(any Error)
    /// A read failed on a value another client stored that the service cannot use; the task
    /// waits for the next change.
    case unreadable(StoredDataError)
    /// The store answers again after `unavailable`.
    case reconnected
    /// The snapshots ended: after an interruption (`nil`), or with the error of a read.
    case ended((any Error)?)
}
