/// What a cart mutation did: the cart's new version and the touched line's new quantity.
public struct CartUpdate: Hashable, Sendable {
    /// The cart ID.
    public let cartID: String
    /// The cart's version after the change.
    public let version: Int
    /// The SKU of the line changed, or `nil` for `clear()`.
    public let sku: String?
    /// The line's quantity after the change; 0 when the line is gone.
    public let quantity: Int

    /// Creates an update record.
    public init(cartID: String, version: Int, sku: String?, quantity: Int) {
        self.cartID = cartID
        self.version = version
        self.sku = sku
        self.quantity = quantity
    }
}
