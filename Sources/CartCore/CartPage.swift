/// One page of stored carts, in ID order, and the cursor for the next.
public struct CartPage: Hashable, Sendable {
    /// The carts of this page.
    public let carts: [CartSummary]
    /// Pass as `CartQuery.after` for the next page; `nil` when this was the last.
    public let next: String?

    /// Creates a page.
    public init(carts: [CartSummary], next: String?) {
        self.carts = carts
        self.next = next
    }
}
