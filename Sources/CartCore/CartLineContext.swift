/// What a change to one cart line depends on, read for update in one storage call
/// (`CartStorageWriter.lockCartLine(cartID:sku:)`): the cart's header, the product, the line's
/// quantity and the cart's line count.
public struct CartLineContext: Hashable, Sendable {
    /// The cart's header, or `nil` for a cart never written.
    public var header: CartHeader?
    /// The product with the line's SKU, active or not, or `nil` when there is none.
    public var product: Product?
    /// The line's quantity, or `nil` when the cart has no line for the SKU.
    public var quantity: Int?
    /// How many lines the cart has. Only read when `quantity` is `nil` (a new line is what the
    /// per-cart line cap limits), and 0 otherwise.
    public var lineCount: Int

    /// Creates a context.
    public init(header: CartHeader?, product: Product?, quantity: Int?, lineCount: Int) {
        self.header = header
        self.product = product
        self.quantity = quantity
        self.lineCount = lineCount
    }
}
