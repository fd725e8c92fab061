/// The result of a checkout: the order, and whether it was placed by an earlier call with the
/// same idempotency key.
public struct CheckoutResult: Hashable, Sendable, Codable {
    /// The order placed (now, or by the earlier call).
    public let order: Order
    /// `true` when this call placed nothing and returned the earlier order.
    public let replayed: Bool

    /// Creates a result.
    public init(order: Order, replayed: Bool) {
        self.order = order
        self.replayed = replayed
    }
}
