public import CartCore

/// Why the last operation of a `CartStore` did not happen.
///
/// Rule violations keep their `CartError`; storage failures keep their category and their
/// description, so the value stays `Hashable` and `Sendable` whatever the backend's error type
/// is, and is caught by category as a `CartService` error is.
public enum CartStoreError: CategorizedError, Hashable, Sendable, CustomStringConvertible {
    /// `CartService` refused the operation; nothing changed.
    case rule(CartError)
    /// The backend failed (for SQLite, a `DatabaseError`): what kind of failure, and its
    /// description for people.
    case storage(ErrorCategory, String)

    /// Classifies an error thrown by `CartService`.
    init(_ error: any Error) {
        if let rule = error as? CartError {
            self = .rule(rule)
        } else {
            self = .storage(ErrorCategory(of: error), String(describing: error))
        }
    }

    public var category: ErrorCategory {
        switch self {
        case .rule(let error): error.category
        case .storage(let category, _): category
        }
    }

    public var description: String {
        switch self {
        case .rule(let error): error.description
        case .storage(_, let message): message
        }
    }
}
