/// Storage constraints the in-memory backend enforces, as SQLite's constraints do: they catch
/// a caller that bypasses `CartService`, never a rule.
public enum InMemoryStorageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A cart line, or a stock write, names a product that does not exist.
    case missingProduct(String)
    /// A cart line quantity of zero or less.
    case nonPositiveQuantity(Int)
    /// An order number that is not the next one.
    case orderNumberTaken(OrderNumber)
    /// An idempotency key that already placed an order.
    case idempotencyKeyTaken(String)

    public var description: String {
        switch self {
        case .missingProduct(let sku): return "In-memory storage: no product '\(sku)'."
        case .nonPositiveQuantity(let quantity): return "In-memory storage: line quantity \(quantity) is not positive."
        case .orderNumberTaken(let number): return "In-memory storage: order number \(number) is not the next one."
        case .idempotencyKeyTaken(let key): return "In-memory storage: idempotency key '\(key)' is taken."
        }
    }
}
