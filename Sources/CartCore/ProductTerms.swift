/// What the cart-line rules read of a product: its price, whether it can be sold, and its
/// tracked stock (`Product.terms`).
public struct ProductTerms: Hashable, Sendable {
    /// The current unit price.
    public var price: Money
    /// Whether the product can be added to carts and checked out.
    public var isActive: Bool
    /// Units in stock, or `nil` when stock is not tracked.
    public var stock: Int?

    /// Creates terms.
    public init(price: Money, isActive: Bool, stock: Int?) {
        self.price = price
        self.isActive = isActive
        self.stock = stock
    }
}
