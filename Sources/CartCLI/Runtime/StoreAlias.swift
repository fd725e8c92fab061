/// The names the deprecated `--store` option and `CART_STORE` take, in the order help lists
/// them.
enum StoreAlias: String, CaseIterable, Sendable {
    /// A SQLite file: `CART_DB`, else the default file.
    case sqlite
    /// The in-memory store, `--db memory:`.
    case memory

    /// The location the name stands for; `nil` for `sqlite`, which leaves the choice to
    /// `CART_DB` and the default.
    var location: String? {
        switch self {
        case .sqlite: nil
        case .memory: Stores.memoryLocation
        }
    }
}
