/// What a change to one cart line depends on, read in one storage call
/// (`CartStorageReader.lineContext(cartID:sku:)`): the cart's version, the product's terms,
/// the line's quantity and, for a new line, the cart's line count and last position.
public struct CartLineContext: Hashable, Sendable {
    /// The cart's version, or `nil` for a cart never written.
    public var cartVersion: Int?
    /// The terms of the product with the line's SKU, active or not, or `nil` when there is none.
    public var terms: ProductTerms?
    /// The line's quantity, or `nil` when the cart has no line for the SKU.
    public var quantity: Int?
    /// How many lines the cart has. Read only when `quantity` is `nil` (a new line is what the
    /// per-cart line cap limits); a backend may answer 0 otherwise.
    public var lineCount: Int
    /// The highest position of the cart's lines, 0 when it has none. Read only when `quantity`
    /// is `nil` (a new line goes after it); a backend may answer 0 otherwise.
    public var lastPosition: Int

    /// Creates a context.
    public init(cartVersion: Int?, terms: ProductTerms?, quantity: Int?, lineCount: Int, lastPosition: Int) {
        self.cartVersion = cartVersion
        self.terms = terms
        self.quantity = quantity
        self.lineCount = lineCount
        self.lastPosition = lastPosition
    }
}
