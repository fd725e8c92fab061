import CartCore
import CartInMemory
import CartPostgres
import CartSQLite

/// The stores the tool can open, by location: `memory:`, `postgresql://…` and `postgres://…`,
/// and any other location as a SQLite file path. The one file of the tool that knows the
/// backends.
enum Stores {
    static let registry = StoreRegistry([
        InMemoryCartRepository.backend, PostgresCartRepository.backend, SQLiteCartRepository.backend,
    ])

    /// The location of the in-memory store.
    static let memoryLocation = "memory:"

    /// Whether the store at `location` keeps nothing once the command ends.
    static func keepsNothing(_ location: String) -> Bool {
        InMemoryCartRepository.backend.accepts(location)
    }
}
