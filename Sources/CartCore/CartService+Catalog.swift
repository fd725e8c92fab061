extension CartService {
    /// The store settings.
    ///
    /// - Throws: a storage error.
    public func settings() throws -> StoreSettings {
        try repository.read { storage in try storage.settings() }
    }

    /// Changes store settings; `nil` keeps a setting. The currency can only change while no
    /// products exist.
    ///
    /// - Throws: `CartError.invalidSetting`, `.currencyLocked`, or a storage error.
    @discardableResult
    public func updateSettings(currency: Currency? = nil, maxLineQuantity: Int? = nil, maxLinesPerCart: Int? = nil)
        throws -> StoreSettings
    {
        if let maxLineQuantity, !StoreSettings.maxLineQuantityRange.contains(maxLineQuantity) {
            throw CartError.invalidSetting(
                name: "Maximum line quantity", value: maxLineQuantity, range: StoreSettings.maxLineQuantityRange)
        }
        if let maxLinesPerCart, !StoreSettings.maxLinesPerCartRange.contains(maxLinesPerCart) {
            throw CartError.invalidSetting(
                name: "Maximum lines per cart", value: maxLinesPerCart, range: StoreSettings.maxLinesPerCartRange)
        }
        return try repository.write { storage in
            var settings = try storage.settings()
            if let currency, currency != settings.currency {
                guard try storage.productCount() == 0 else {
                    throw CartError.currencyLocked(current: settings.currency.code, requested: currency.code)
                }
                settings.currency = currency
            }
            if let maxLineQuantity { settings.maxLineQuantity = maxLineQuantity }
            if let maxLinesPerCart { settings.maxLinesPerCart = maxLinesPerCart }
            try storage.saveSettings(settings)
            return settings
        }
    }

    /// How many products, carts and orders the store holds, counted in one snapshot.
    ///
    /// - Throws: a storage error.
    public func counts() throws -> StoreCounts {
        try repository.read { storage in
            StoreCounts(products: try storage.productCount(), carts: try storage.cartCount(), orders: try storage.orderCount())
        }
    }

    /// The product with this SKU, active or not.
    ///
    /// - Throws: `CartError.invalidSKU`, `.unknownProduct`, or a storage error.
    public func product(_ sku: String) throws -> Product {
        let sku = try Validation.sku(sku)
        guard let product = try repository.read({ storage in try storage.product(sku: sku) }) else {
            throw CartError.unknownProduct(sku)
        }
        return product
    }

    /// The catalog ordered by SKU; inactive products only when asked.
    ///
    /// - Throws: a storage error.
    public func products(includeInactive: Bool = false) throws -> [Product] {
        try repository.read { storage in try storage.products().filter { includeInactive || $0.isActive } }
    }

    /// Adds a new product.
    ///
    /// - Throws: `CartError.productExists`, the errors of `validated(_:)`, or a storage error.
    @discardableResult
    public func addProduct(_ product: Product) throws -> Product {
        try repository.write { storage in
            let product = try Self.validated(product, settings: try storage.settings())
            guard try storage.product(sku: product.sku) == nil else { throw CartError.productExists(product.sku) }
            try storage.insertProduct(product)
            return product
        }
    }

    /// Changes an existing product.
    ///
    /// - Throws: `CartError.unknownProduct`, the errors of `validated(_:)`, or a storage error.
    @discardableResult
    public func updateProduct(_ sku: String, with update: ProductUpdate) throws -> Product {
        let sku = try Validation.sku(sku)
        return try repository.write { storage in
            guard var product = try storage.product(sku: sku) else { throw CartError.unknownProduct(sku) }
            if let name = update.name { product.name = name }
            if let price = update.price { product.price = price }
            if let stock = update.stock { product.stock = stock.units }
            if let isActive = update.isActive { product.isActive = isActive }
            product = try Self.validated(product, settings: try storage.settings())
            try storage.updateProduct(product)
            return product
        }
    }

    /// How many products an import created and how many it changed.
    public struct ImportSummary: Hashable, Sendable, Codable {
        /// Products that did not exist before.
        public let created: Int
        /// Existing products whose name, price, stock or active flag changed.
        public let updated: Int
        /// Existing products the import left as they were.
        public let unchanged: Int
    }

    /// Creates or updates many products in one atomic unit: all of them or none. Imported
    /// products are active; a `nil` stock stops tracking stock.
    ///
    /// - Throws: `CartError.invalidImportItem` naming the first bad item,
    ///   `.duplicateImportSKU`, or a storage error. Nothing is stored then.
    @discardableResult
    public func importProducts(_ products: [Product]) throws -> ImportSummary {
        try repository.write { storage in
            let settings = try storage.settings()
            // Shares the caller's buffer until a product needs trimming: most need none.
            var valid = products
            for index in products.indices where !Self.isValidAsGiven(products[index], settings: settings) {
                let product: Product
                do throws(CartError) {
                    product = try Self.validated(products[index], settings: settings)
                } catch {
                    // A SKU repeated before this item is the first problem then.
                    try Self.checkDistinctSKUs(valid[..<index])
                    throw CartError.invalidImportItem(index: index, reason: error)
                }
                if product.sku != products[index].sku || product.name != products[index].name { valid[index] = product }
            }
            try Self.checkDistinctSKUs(valid[...])
            let inserted = try storage.insertAbsentProducts(valid)
            let existing = zip(valid, inserted).filter { !$0.1 }.map(\.0)
            var updated = 0
            for (product, old) in zip(existing, try storage.products(skus: existing.map(\.sku))) where old != product {
                try storage.updateProduct(product)
                updated += 1
            }
            return ImportSummary(
                created: valid.count - existing.count, updated: updated, unchanged: existing.count - updated)
        }
    }

    /// Refuses the first product whose SKU an earlier one has.
    private static func checkDistinctSKUs(_ products: ArraySlice<Product>) throws(CartError) {
        var firstIndex: [String: Int] = [:]
        firstIndex.reserveCapacity(products.count)
        for index in products.indices {
            if let first = firstIndex.updateValue(index, forKey: products[index].sku) {
                throw .duplicateImportSKU(products[index].sku, firstIndex: first, index: index)
            }
        }
    }

    /// Whether `validated(_:settings:)` would return the product exactly as given, checked
    /// without copying it or trimming anything; `false` leaves the decision to `validated`.
    private static func isValidAsGiven(_ product: borrowing Product, settings: StoreSettings) -> Bool {
        Validation.isPlainASCII(product.sku, maxLength: Validation.maxSKULength)
            && Validation.isPlainASCII(product.name, maxLength: Validation.maxNameLength)
            && product.price.currency == settings.currency
            && (0...Product.maximumPriceMinorUnits).contains(product.price.minorUnits)
            && (product.stock ?? 0) >= 0
    }

    /// The product with SKU and name trimmed, if every field is acceptable for this store.
    ///
    /// - Throws: `CartError.invalidSKU`, `.invalidName`, `.currencyMismatch`,
    ///   `.invalidAmount` (a negative price or one above `Product.maximumPriceMinorUnits`), or
    ///   `.invalidStock`.
    public static func validated(_ product: Product, settings: StoreSettings) throws(CartError) -> Product {
        var product = product
        product.sku = try Validation.sku(product.sku)
        product.name = try Validation.name(product.name)
        guard product.price.currency == settings.currency else {
            throw .currencyMismatch(product.price.currency.code, settings.currency.code)
        }
        guard product.price.minorUnits >= 0 else {
            throw .invalidAmount(product.price.decimalString, reason: "prices cannot be negative")
        }
        guard product.price.minorUnits <= Product.maximumPriceMinorUnits else {
            let maximum = Money(minorUnits: Product.maximumPriceMinorUnits, currency: product.price.currency)
            throw .invalidAmount(product.price.decimalString, reason: "prices are at most \(maximum.decimalString)")
        }
        if let stock = product.stock, stock < 0 { throw .invalidStock(stock) }
        return product
    }
}
