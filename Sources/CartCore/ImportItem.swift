/// What `CartService`'s import needs of an item: a whole `Product`, or a `ProductImport` that
/// may leave fields as stored.
protocol ImportItem: Equatable {
    /// The product's SKU.
    var sku: String { get }
    /// The product the item creates when the store has none with its SKU, or `nil` when it
    /// lacks the name or the price a new product needs.
    var newProduct: Product? { get }
    /// The `newProduct` of each item that has one, in order.
    static func newProducts(_ items: [Self]) -> [Product]
    /// The fields a new product needs that the item lacks: `name`, `price`.
    var missingForNewProduct: [String] { get }
    /// `old` with the fields the item gives.
    func applied(to old: Product) -> Product
    /// Whether `validated(settings:)` would return the item exactly as it is, checked without
    /// copying it or trimming anything; `false` leaves the decision to `validated`.
    func isValidAsGiven(settings: StoreSettings) -> Bool
    /// The item with SKU and name trimmed, if every field it gives is acceptable for this store.
    ///
    /// - Throws: the errors of `CartService.validated(_:settings:)`.
    func validated(settings: StoreSettings) throws(CartError) -> Self
}

extension Product: ImportItem {
    var newProduct: Product? { self }

    /// The products themselves, sharing their buffer: an import of a whole catalog hands the
    /// batch insert the caller's array.
    static func newProducts(_ items: [Product]) -> [Product] { items }

    var missingForNewProduct: [String] { [] }

    func applied(to old: Product) -> Product { self }

    func isValidAsGiven(settings: StoreSettings) -> Bool {
        Validation.isNewSKUAsGiven(sku)
            && Validation.isPlainASCII(name, maxLength: Validation.maxNameLength)
            && price.currency == settings.currency && (0...Product.maximumPriceMinorUnits).contains(price.minorUnits)
            && (stock ?? 0) >= 0
    }

    func validated(settings: StoreSettings) throws(CartError) -> Product {
        _ = try Validation.newSKU(sku)
        return try CartService.validated(self, settings: settings)
    }
}

extension ProductImport: ImportItem {
    static func newProducts(_ items: [ProductImport]) -> [Product] {
        var products: [Product] = []
        products.reserveCapacity(items.count)
        for item in items {
            if let product = item.newProduct { products.append(product) }
        }
        return products
    }

    func isValidAsGiven(settings: StoreSettings) -> Bool {
        guard Validation.isNewSKUAsGiven(sku) else { return false }
        if let name, !Validation.isPlainASCII(name, maxLength: Validation.maxNameLength) { return false }
        if let price {
            guard price.currency == settings.currency, (0...Product.maximumPriceMinorUnits).contains(price.minorUnits)
            else { return false }
        }
        return (stock?.units ?? 0) >= 0
    }

    func validated(settings: StoreSettings) throws(CartError) -> ProductImport {
        var item = self
        item.sku = try Validation.newSKU(sku)
        if let name { item.name = try Validation.name(name) }
        if let price { try CartService.checkPrice(price, settings: settings) }
        if let units = stock?.units, units < 0 { throw .invalidStock(units) }
        return item
    }
}
