import CartCore

/// An error about a store other than the one `--db` names (`db copy --to`), or about two
/// stores at once: `ErrorReporter` names `location` in its message, or starts it with
/// `context`, and gives the exit status of the error's own category.
struct StoreFailure: CategorizedError {
    /// The store to name, as messages show it (password masked); `nil` when `context` names
    /// the stores.
    let location: String?
    /// What was being done, to begin the message with (`Cannot copy 'a' into 'b'`).
    let context: String?
    /// What went wrong.
    let error: any Error

    var category: ErrorCategory { ErrorCategory(of: error) }
    var reason: String? { (error as? any CategorizedError)?.reason }
}
