import Synchronization

/// SQL text a connection runs again and again, numbered once per process so that
/// `Database.cached(_:)` finds its prepared statement by array index rather than by hashing
/// the whole SQL text on every call.
///
/// Declare each as a `static let`, so it gets one slot for the life of the process:
///
/// ```swift
/// private static let selectProduct = CachedSQL("SELECT … FROM products WHERE sku = ?")
/// let statement = try database.cached(Self.selectProduct)
/// ```
struct CachedSQL: Sendable {
    /// The statement's index in every connection's cache.
    let slot: Int
    /// The SQL text, prepared once per connection.
    let text: String

    private static let slots = Atomic<Int>(0)

    init(_ text: String) {
        self.text = text
        slot = Self.slots.add(1, ordering: .relaxed).oldValue
    }
}
