/// One page of orders and the cursor for the next.
public struct OrderPage: Hashable, Sendable {
    /// The orders of this page.
    public let orders: [Order]
    /// Pass as `OrderQuery.after` for the next page; `nil` when this was the last.
    public let next: OrderNumber?

    /// Creates a page.
    public init(orders: [Order], next: OrderNumber?) {
        self.orders = orders
        self.next = next
    }
}
