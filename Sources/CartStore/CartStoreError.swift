public import CartCore

/// Why the last operation of a `CartStore` did not happen.
///
/// Rule violations keep their `CartError`; storage failures keep their category, a sentence
/// for people and the backend's own description, so the value stays `Hashable` and `Sendable`
/// whatever the backend's error type is, and is caught by category as a `CartService` error
/// is. Its `description` (and so `localizedDescription`, what an alert shows) is always the
/// sentence for people.
public enum CartStoreError: CategorizedError, Hashable, Sendable, CustomStringConvertible {
    /// `CartService` refused the operation; nothing changed.
    case rule(CartError)
    /// The store failed or cannot be used: what kind of failure, what to tell people, and the
    /// error's own description (for SQLite, a `DatabaseError`'s, which may quote SQL), for logs.
    case storage(ErrorCategory, message: String, detail: String)

    /// Classifies an error thrown by `CartService`, or by opening a repository: an app that
    /// cannot open its store shows this error's description, a sentence for people, rather
    /// than the backend's own, which is for developers (SQLite's quotes SQL).
    public init(_ error: any Error) {
        if let rule = error as? CartError {
            self = .rule(rule)
            return
        }
        let category = ErrorCategory(of: error)
        let detail = String(describing: error)
        switch error {
        case is StoredDataError, is StoreLocationError, is MigrationError:
            // The core's own storage errors describe themselves for people.
            self = .storage(category, message: detail, detail: detail)
        default:
            let reason = (error as? any CategorizedError)?.reason
            self = .storage(category, message: Self.sentence(for: category, reason: reason), detail: detail)
        }
    }

    /// What people read of a backend's failure: the category in words, with the backend's
    /// reason when it gives one (its description is for developers).
    private static func sentence(for category: ErrorCategory, reason: String?) -> String {
        let (subject, fallback) =
            switch category {
            case .unavailable: ("The store is unavailable", "The store is busy or out of reach")
            case .outcomeUnknown:
                ("The store went out of reach", "The store went out of reach while committing the change, which may or may not have been made")
            case .readOnly: ("The store cannot be written", "The store is read-only")
            case .incompatibleStore: ("The store cannot be used by this version", "The store needs another version of this app")
            case .damagedStore: ("The store cannot be read as a cart store", "The store is damaged, or is not a cart store")
            case .storageFailure: ("The store failed", "The store failed")
            case .invalidInput, .notFound, .conflict, .staleVersion, .refused:
                ("The store refused the operation", "The store refused the operation")
            }
        let sentence = reason.map { "\(subject): \($0)" } ?? fallback
        return sentence + (category == .unavailable ? "; try again." : ".")
    }

    public var category: ErrorCategory {
        switch self {
        case .rule(let error): error.category
        case .storage(let category, _, _): category
        }
    }

    public var description: String {
        switch self {
        case .rule(let error): error.description
        case .storage(_, let message, _): message
        }
    }
}
