import Synchronization

/// SQL text a connection runs again and again, numbered once per process so that
/// `Database.cached(_:)` finds its prepared statement by array index. Looking statements up
/// by their text hashed the whole SQL string on every call, about a tenth of the
/// instructions of an add-to-cart (measured with callgrind, issue 6).
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
