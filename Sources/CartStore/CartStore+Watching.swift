import CartCore

extension CartStore {
    /// Whether the store is polling for changes.
    public var isWatching: Bool { watchTask != nil }

    /// Polls the repository's change token every `interval` and re-reads the cart only when it
    /// moved, so changes from other connections and processes reach the store. Idle, a poll is
    /// one tiny query (for SQLite, `PRAGMA data_version`) and no cart read. Calling it again
    /// replaces the previous interval. The polling stops with `stopWatching()` or when the
    /// store is released.
    public func startWatching(interval: Duration = .milliseconds(500)) {
        stopWatching()
        watchTask = Task { [weak self] in
            while true {
                do {
                    try await Task.sleep(for: interval)
                } catch {
                    return
                }
                guard let store = self else { return }
                store.refreshIfChanged()
            }
        }
    }

    /// Stops polling for changes.
    public func stopWatching() {
        watchTask?.cancel()
        watchTask = nil
    }

    /// Re-reads the cart if anything committed since the store last read it: one poll of
    /// `startWatching(interval:)`, for apps that prefer their own trigger (a timer, becoming
    /// active). A failure goes to `lastError`; a later successful poll clears a storage error
    /// but leaves a rule error (the user's last refused action) in place.
    ///
    /// - Returns: whether the cart was re-read.
    @discardableResult
    public func refreshIfChanged() -> Bool {
        do {
            let moved = try service.repository.changeToken() != lastToken
            if moved { try reload() }
            if case .storage = lastError { dismissError() }
            return moved
        } catch {
            record(error)
            return false
        }
    }

    /// The cart's snapshots with their problems, polled every `interval`: the current ones
    /// first, then new ones each time either changes. See `CartSnapshots`.
    public nonisolated func snapshots(interval: Duration = .milliseconds(500)) -> CartSnapshots {
        CartSnapshots(service: service, cartID: cartID, interval: interval)
    }
}
