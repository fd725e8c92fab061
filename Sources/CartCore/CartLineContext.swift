/// What a change to one cart line depends on, read for update in one storage call
/// (`CartStorageWriter.lockCartLine(cartID:sku:)`): the cart's version, the product's terms, the
/// line's quantity and the cart's line count.
///
/// It holds only what the rules read, and nothing a copy has to retain: it travels through the
/// protocol on every add and set (issue 6).
public struct CartLineContext: Hashable, Sendable {
    /// The cart's version, or `nil` for a cart never written.
    public var cartVersion: Int?
    /// The terms of the product with the line's SKU, active or not, or `nil` when there is none.
    public var terms: ProductTerms?
    /// The line's quantity, or `nil` when the cart has no line for the SKU.
    public var quantity: Int?
    /// How many lines the cart has. Only read when `quantity` is `nil` (a new line is what the
    /// per-cart line cap limits), and 0 otherwise.
    public var lineCount: Int

    /// Creates a context.
    public init(cartVersion: Int?, terms: ProductTerms?, quantity: Int?, lineCount: Int) {
        self.cartVersion = cartVersion
        self.terms = terms
        self.quantity = quantity
        self.lineCount = lineCount
    }
}
