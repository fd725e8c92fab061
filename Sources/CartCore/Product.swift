/// A product in the catalog.
public struct Product: Hashable, Sendable {
    /// The stock-keeping unit: the product's unique key, trimmed, 1 to 64 characters.
    public var sku: String
    /// The name shown to customers, trimmed, 1 to 200 characters.
    public var name: String
    /// The current unit price. Carts show it; orders keep the price they were placed at.
    public var price: Money
    /// Whether the product can be added to carts and checked out.
    public var isActive: Bool
    /// Units in stock, or `nil` when stock is not tracked for this product.
    public var stock: Int?

    /// The highest price a product may have, in minor units: 10^8 ($1,000,000.00, ¥100,000,000).
    ///
    /// With at most 1,000,000 units per line and 10,000 lines per cart, every cart and every
    /// order then totals below 10^18 minor units, so a stored cart can always be totalled
    /// without overflowing 64 bits.
    public static let maximumPriceMinorUnits: Int64 = 100_000_000

    /// The price, active flag and stock: what the cart-line rules read.
    public var terms: ProductTerms { ProductTerms(price: price, isActive: isActive, stock: stock) }

    /// Why `name` is not one a new product, an update or an import may give, or `nil` when it
    /// is: empty, too long, control or bidirectional override characters, noncharacters, or
    /// nothing visible. A product stored by an earlier version may keep such a name.
    public static func newNameProblem(_ name: String) -> String? {
        Validation.nameProblem(name)
    }

    /// Creates a product value; `CartService` validates it before storing it.
    public init(sku: String, name: String, price: Money, isActive: Bool = true, stock: Int? = nil) {
        self.sku = sku
        self.name = name
        self.price = price
        self.isActive = isActive
        self.stock = stock
    }
}
