#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A placed order: what a checkout turned a cart into.
public struct Order: Hashable, Sendable {
    /// The sequential, gapless order number.
    public let number: OrderNumber
    /// The cart that was checked out.
    public let cartID: String
    /// When the order was placed (UTC, from the service's clock).
    public let placedAt: Date
    /// The store currency at checkout.
    public let currency: Currency
    /// The sum of the lines' quantities.
    public let totalItems: Int
    /// The sum of the lines' totals.
    public let total: Money
    /// The idempotency key the checkout carried, if any.
    public let idempotencyKey: String?
    /// The lines, in cart order.
    public let lines: [OrderLine]

    /// Creates an order from stored values.
    public init(
        number: OrderNumber, cartID: String, placedAt: Date, currency: Currency, totalItems: Int,
        total: Money, idempotencyKey: String?, lines: [OrderLine]
    ) {
        self.number = number
        self.cartID = cartID
        self.placedAt = placedAt
        self.currency = currency
        self.totalItems = totalItems
        self.total = total
        self.idempotencyKey = idempotencyKey
        self.lines = lines
    }
}
