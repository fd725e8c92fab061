public import CartCore

/// A PostgreSQL store that cannot be used as asked, or a storage write whose assumption does
/// not hold (which `CartService` never makes: another client changed the data behind its
/// back). A refused write changes nothing and leaves its unit usable.
public enum PostgresStoreError: CategorizedError, Hashable, Sendable, CustomStringConvertible {
    /// A write by key found no row to change, or not the row it assumes (`what` names it).
    case notStored(String)
    /// A row a write inserts is stored already. When this ends a unit, the repository runs the
    /// unit again: another unit may have stored the row after this one looked.
    case alreadyStored(String)
    /// A line quantity below 1 given to a write.
    case nonPositiveQuantity(Int)
    /// A row the schema always has is missing (`what` names it): another client deleted it.
    case missingRow(String)
    /// The search path of the location names no schema that exists and the role may use
    /// (USAGE), so there is nowhere to create the store. The server's `current_schema()` is
    /// NULL in both cases and does not say which it is, so the words name both.
    case noSchema(location: String)
    /// The store does not exist, and the role may not create tables in the schema it would
    /// be created in.
    case mayNotCreate(location: String)
    /// The server takes no writes now, for the reason given (a standby, read-only sessions);
    /// found without writing.
    case readOnly(String)

    public var category: ErrorCategory {
        switch self {
        case .notStored, .alreadyStored, .nonPositiveQuantity, .noSchema, .mayNotCreate: .storageFailure
        case .missingRow: .damagedStore
        case .readOnly: .readOnly
        }
    }

    /// For `noSchema` and `mayNotCreate`, what to do, and for `missingRow` what is missing,
    /// without the location.
    public var reason: String? {
        switch self {
        case .missingRow(let what): "it has no \(what); another client deleted it"
        case .noSchema:
            "its search path names no schema that exists and the role may use; create one (CREATE SCHEMA), grant the role "
                + "USAGE on it, or set search_path"
        case .mayNotCreate: "it holds no store, and the role may not create one there (it lacks CREATE on the schema)"
        case .readOnly(let why): why
        default: nil
        }
    }

    public var description: String {
        switch self {
        case .notStored(let what): "PostgreSQL storage: \(what) is not stored; nothing was written."
        case .alreadyStored(let what): "PostgreSQL storage: \(what) is stored already; nothing was written."
        case .nonPositiveQuantity(let quantity): "PostgreSQL storage: line quantity \(quantity) is not positive."
        case .missingRow(let what): "The PostgreSQL store has no \(what); another client deleted it."
        case .noSchema(let location):
            "The search path of \(location) names no schema that exists and the role may use; create one (CREATE SCHEMA), "
                + "grant the role USAGE on it, or set search_path."
        case .mayNotCreate(let location):
            "\(location) holds no store, and the role may not create one there (it lacks CREATE on the schema)."
        case .readOnly(let why): "The PostgreSQL store takes no writes: \(why)."
        }
    }
}
