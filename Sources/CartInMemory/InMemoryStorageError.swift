public import CartCore

/// A storage call whose assumptions do not hold, which `CartService` never makes: the
/// in-memory backend refuses it as SQLite's constraints refuse such a write, and stores
/// nothing.
public enum InMemoryStorageError: CategorizedError, Hashable, Sendable, CustomStringConvertible {
    /// A product that should exist does not, or one that should not exists.
    case product(String, exists: Bool)
    /// A cart line that should exist does not, or one that should not exists.
    case line(cart: String, sku: String, exists: Bool)
    /// A cart header's stored version is not the one the caller read.
    case header(cart: String, stored: Int?, expected: Int?)
    /// A unit that ends with lines in a cart it saved no header for.
    case linesWithoutHeader(cart: String)
    /// A line quantity of zero or less.
    case nonPositiveQuantity(Int)
    /// An order number that is not the next one.
    case orderNumberTaken(OrderNumber)
    /// An idempotency key that already placed an order.
    case idempotencyKeyTaken(String)
    /// The store has its secret already.
    case secretTaken

    public var category: ErrorCategory { .storageFailure }

    public var description: String {
        switch self {
        case .product(let sku, let exists):
            return "In-memory storage: product '\(sku)' \(exists ? "already exists" : "does not exist")."
        case .line(let cart, let sku, let exists):
            return "In-memory storage: cart '\(cart)' \(exists ? "already has" : "has no") line for '\(sku)'."
        case .header(let cart, let stored, let expected):
            return "In-memory storage: cart '\(cart)' is at version \(stored.map(String.init) ?? "none"), "
                + "not \(expected.map(String.init) ?? "none")."
        case .linesWithoutHeader(let cart):
            return "In-memory storage: cart '\(cart)' has lines but no header."
        case .nonPositiveQuantity(let quantity):
            return "In-memory storage: line quantity \(quantity) is not positive."
        case .orderNumberTaken(let number):
            return "In-memory storage: order number \(number) is not the next one."
        case .idempotencyKeyTaken(let key):
            return "In-memory storage: idempotency key '\(key)' is taken."
        case .secretTaken:
            return "In-memory storage: the store has its secret already."
        }
    }
}
