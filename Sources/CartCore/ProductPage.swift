/// One page of products, in SKU order, and the cursor for the next.
public struct ProductPage: Hashable, Sendable {
    /// The products of this page.
    public let products: [Product]
    /// Pass as `ProductQuery.after` for the next page; `nil` when this was the last.
    public let next: String?

    /// Creates a page.
    public init(products: [Product], next: String?) {
        self.products = products
        self.next = next
    }
}
