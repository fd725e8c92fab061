/// Changes to apply to an existing product; `nil` fields stay as they are.
public struct ProductUpdate: Hashable, Sendable {
    /// A new name.
    public var name: String?
    /// A new price.
    public var price: Money?
    /// A new stock level: `.tracked(n)` units, or `.untracked` to stop tracking stock.
    public var stock: StockLevel?
    /// Units to add to the stock (taken away when negative), after `stock` is set: a delivery or
    /// a count of breakage that keeps what concurrent checkouts took meanwhile.
    public var stockChange: Int?
    /// A new active flag.
    public var isActive: Bool?

    /// Creates an update; leave a field `nil` to keep it.
    public init(
        name: String? = nil, price: Money? = nil, stock: StockLevel? = nil, stockChange: Int? = nil, isActive: Bool? = nil
    ) {
        self.name = name
        self.price = price
        self.stock = stock
        self.stockChange = stockChange
        self.isActive = isActive
    }
}
