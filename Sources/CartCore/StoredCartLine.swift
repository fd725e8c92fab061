/// A stored cart line joined with its product, as a backend returns it.
public struct StoredCartLine: Hashable, Sendable {
    /// How many units the line holds.
    public var quantity: Int
    /// The product as it is now.
    public var product: Product

    /// Creates a stored line.
    public init(quantity: Int, product: Product) {
        self.quantity = quantity
        self.product = product
    }
}

extension StoredCartLine {
    /// Whether the quantity lies in `StoredRange.lineQuantity`, the range the service works
    /// with; another client may have stored any integer.
    var hasUsableQuantity: Bool { StoredRange.lineQuantity.contains(Int64(quantity)) }
}
