import CartCore
import CartInMemory
import CartSQLite

/// The stores the tool can open, by location: `memory:`, and any other location as a SQLite
/// file path.
enum Stores {
    static let registry = StoreRegistry([InMemoryCartRepository.backend, SQLiteCartRepository.backend])

    /// The location `--store NAME` stands for, for the names it takes.
    static let aliases: [String: String?] = ["memory": "memory:", "sqlite": nil]
}
