/// One product of an import (`CartService.importProducts(_:)`): its SKU and the fields the
/// import gives. A field left `nil` keeps what the store holds, so a price list of SKUs and
/// prices leaves stock, names and active flags alone; for a product the store does not hold
/// yet, `nil` means the default (active, stock not tracked), and a name and a price are
/// required.
public struct ProductImport: Hashable, Sendable {
    /// The product's SKU, trimmed as `Product.sku` is.
    public var sku: String
    /// A new name, or `nil` to keep it.
    public var name: String?
    /// A new price, or `nil` to keep it.
    public var price: Money?
    /// A new stock level, or `nil` to keep it.
    public var stock: StockLevel?
    /// Whether the product is for sale, or `nil` to keep the flag.
    public var isActive: Bool?

    /// Creates an item; leave a field `nil` to keep what the store holds.
    public init(sku: String, name: String? = nil, price: Money? = nil, stock: StockLevel? = nil, isActive: Bool? = nil) {
        self.sku = sku
        self.name = name
        self.price = price
        self.stock = stock
        self.isActive = isActive
    }

    /// An item that states every field of `product`, as a whole catalog row does: stored as it
    /// is, whatever the store held before.
    public init(_ product: Product) {
        self.init(
            sku: product.sku, name: product.name, price: product.price, stock: StockLevel(product.stock),
            isActive: product.isActive)
    }

    var newProduct: Product? {
        guard let name, let price else { return nil }
        return Product(sku: sku, name: name, price: price, isActive: isActive ?? true, stock: stock?.units)
    }

    func applied(to old: Product) -> Product {
        var product = old
        if let name { product.name = name }
        if let price { product.price = price }
        if let stock { product.stock = stock.units }
        if let isActive { product.isActive = isActive }
        return product
    }

    var missingForNewProduct: [String] {
        (name == nil ? ["name"] : []) + (price == nil ? ["price"] : [])
    }
}
