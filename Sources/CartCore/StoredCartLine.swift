/// A stored cart line joined with its product, as a backend returns it.
public struct StoredCartLine: Hashable, Sendable {
    /// How many units the line holds.
    public var quantity: Int
    /// Orders the cart's lines: a line added later has a higher position.
    public var position: Int
    /// The product as it is now.
    public var product: Product

    /// Creates a stored line.
    public init(quantity: Int, position: Int, product: Product) {
        self.quantity = quantity
        self.position = position
        self.product = product
    }
}
