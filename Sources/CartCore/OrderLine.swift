/// One line of a placed order, frozen as it was at checkout: later catalog changes never alter it.
public struct OrderLine: Hashable, Sendable {
    /// The product's SKU.
    public let sku: String
    /// The product's name at checkout.
    public let name: String
    /// The unit price at checkout.
    public let unitPrice: Money
    /// The units ordered.
    public let quantity: Int
    /// `unitPrice × quantity`.
    public let lineTotal: Money

    /// Creates an order line from stored values.
    public init(sku: String, name: String, unitPrice: Money, quantity: Int, lineTotal: Money) {
        self.sku = sku
        self.name = name
        self.unitPrice = unitPrice
        self.quantity = quantity
        self.lineTotal = lineTotal
    }
}
