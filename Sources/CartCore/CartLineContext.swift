/// What a change to one cart line depends on, read in one storage call
/// (`CartStorageReader.lineContext(cartID:sku:)`): the cart's header fields, the product's
/// terms, the line's quantity and the store's settings.
public struct CartLineContext: Hashable, Sendable {
    /// The cart's version, or `nil` for a cart never written.
    public var cartVersion: Int?
    /// The cart's line count (`CartHeader.lineCount`), 0 for a cart never written.
    public var lineCount: Int
    /// The position the cart's next new line takes (`CartHeader.nextLinePosition`), 1 for a
    /// cart never written.
    public var nextLinePosition: Int
    /// The terms of the product with the line's SKU, active or not, or `nil` when there is none.
    public var terms: ProductTerms?
    /// The line's quantity as stored, or `nil` when the cart has no line for the SKU. It may lie
    /// outside `StoredRange.lineQuantity` where another client wrote it so: `CartService` checks
    /// it itself, since setting or deleting such a line replaces it whatever it holds.
    public var quantity: Int?
    /// The store's settings as the unit reads them: the caps a line change checks, and the
    /// currency of `terms`.
    public var settings: StoreSettings

    /// Creates a context.
    public init(
        cartVersion: Int?, lineCount: Int, nextLinePosition: Int, terms: ProductTerms?, quantity: Int?,
        settings: StoreSettings
    ) {
        self.cartVersion = cartVersion
        self.lineCount = lineCount
        self.nextLinePosition = nextLinePosition
        self.terms = terms
        self.quantity = quantity
        self.settings = settings
    }
}
