/// One product in a cart, priced at the product's current price.
public struct CartLine: Hashable, Sendable {
    /// The product's SKU.
    public let sku: String
    /// The product's current name.
    public let name: String
    /// How many units the line holds, at least 1.
    public let quantity: Int
    /// The product's current unit price.
    public let unitPrice: Money
    /// `unitPrice × quantity`, exact.
    public let lineTotal: Money

    /// Creates a line, computing its total.
    ///
    /// - Throws: `CartError.amountOverflow` if the total does not fit.
    public init(sku: String, name: String, quantity: Int, unitPrice: Money) throws(CartError) {
        self.sku = sku
        self.name = name
        self.quantity = quantity
        self.unitPrice = unitPrice
        self.lineTotal = try unitPrice.multiplied(by: quantity)
    }
}
