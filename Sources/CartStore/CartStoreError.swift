public import CartCore

/// Why the last operation of a `CartStore` did not happen.
///
/// Rule violations keep their `CartError`; storage failures keep only their description, so
/// the value stays `Hashable` and `Sendable` whatever the backend's error type is.
public enum CartStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `CartService` refused the operation; nothing changed.
    case rule(CartError)
    /// The backend failed (for SQLite, a `DatabaseError`), described for people.
    case storage(String)

    /// Classifies an error thrown by `CartService`.
    init(_ error: any Error) {
        if let rule = error as? CartError {
            self = .rule(rule)
        } else {
            self = .storage(String(describing: error))
        }
    }

    public var description: String {
        switch self {
        case .rule(let error): error.description
        case .storage(let message): message
        }
    }
}
