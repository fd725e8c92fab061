extension CartService {
    /// The store settings.
    ///
    /// - Throws: a storage error.
    public func settings() throws -> StoreSettings {
        try repository.read { storage in try storage.settings() }
    }

    /// Changes store settings; `nil` keeps a setting. The currency can only change while the
    /// store holds no products and no orders: stored prices and order amounts are minor units of
    /// the store's currency.
    ///
    /// - Throws: `CartError.invalidSetting`, `.currencyLocked`, or a storage error.
    @discardableResult
    public func updateSettings(currency: Currency? = nil, maxLineQuantity: Int? = nil, maxLinesPerCart: Int? = nil)
        throws -> StoreSettings
    {
        try StoreSettings.check(maxLineQuantity: maxLineQuantity, maxLinesPerCart: maxLinesPerCart)
        return try repository.write { storage in
            var settings = try storage.settingsForChange()
            if let currency, currency != settings.currency {
                guard try storage.productCount() == 0, try storage.orderCount() == 0 else {
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

    /// One page of the products matching `query`, in SKU order, with the cursor for the next
    /// page: the catalog searched by SKU or name.
    ///
    /// - Throws: `CartError.invalidLimit` for a limit outside 1...10000, `.invalidSKU` for an
    ///   empty `after`, which no page's `next` is, or a storage error.
    public func products(matching query: ProductQuery) throws -> ProductPage {
        if let limit = query.limit, !(1...Self.maxPageSize).contains(limit) { throw CartError.invalidLimit(limit) }
        // Taken as the first page, an emptied `next` would page a client through the catalog forever.
        if query.after?.isEmpty == true { throw CartError.invalidSKU("", reason: "it is empty") }
        // One product more than the page says whether another page follows.
        let selected = try repository.read { storage in
            try Self.products(matching: query, upTo: query.limit.map { $0 + 1 }, in: storage)
        }
        guard let limit = query.limit, selected.count > limit else { return ProductPage(products: selected, next: nil) }
        let page = Array(selected.prefix(limit))
        return ProductPage(products: page, next: page.last?.sku)
    }

    /// How many products a text search reads first; each later read takes twice as many.
    static let firstSearchBatchSize = 1000

    /// The first `count` products matching `query` (every one when `nil`), in SKU order. The
    /// store selects by cursor and activity; a text search is checked here, by
    /// `ProductQuery.includes(_:)`'s case folding, over the store's products a batch at a
    /// time until enough match. The batches double, so that a search that fills its page early
    /// reads little, and one through a large catalog reads it in few steps (a store without a
    /// sorted index, the in-memory one, sorts its catalog once a step).
    private static func products(
        matching query: ProductQuery, upTo count: Int?, in storage: any CartStorageReader
    ) throws -> [Product] {
        guard let text = query.text, !text.isEmpty else {
            return try storage.products(after: query.after, includeInactive: query.includeInactive, limit: count)
        }
        var matches: [Product] = []
        var after = query.after
        var batchSize = firstSearchBatchSize
        while true {
            let batch = try storage.products(after: after, includeInactive: query.includeInactive, limit: batchSize)
            for product in batch where query.includes(product) {
                matches.append(product)
                if matches.count == count { return matches }
            }
            guard batch.count == batchSize, let last = batch.last else { return matches }
            after = last.sku
            batchSize *= 2
        }
    }

    /// Deletes a product that no cart holds, also one whose price, stock or active flag another
    /// client stored out of range. Orders keep their lines, which copied the product's SKU, name and
    /// price when they were placed.
    ///
    /// - Returns: the product as it was, its values as stored.
    /// - Throws: `CartError.invalidSKU`, `.unknownProduct`, `.productInCarts` naming the carts
    ///   that hold it, or a storage error.
    @discardableResult
    public func deleteProduct(_ sku: String) throws -> Product {
        let sku = try Validation.sku(sku)
        return try repository.write { storage in
            // Also one whose price, stock or active flag another client stored out of range.
            guard let product = try storage.productAsStored(sku: sku)?.product else { throw CartError.unknownProduct(sku) }
            let carts = try storage.cartsHolding(sku: sku)
            guard carts.isEmpty else { throw CartError.productInCarts(sku: sku, carts: carts) }
            try storage.deleteProduct(sku: sku)
            return product
        }
    }

    /// Adds a new product.
    ///
    /// - Throws: `CartError.productExists`, the errors of `validated(_:)`, or a storage error.
    @discardableResult
    public func addProduct(_ product: Product) throws -> Product {
        _ = try Validation.newSKU(product.sku)
        return try repository.write { storage in
            let product = try Self.validated(product, settings: try storage.settings())
            guard try storage.product(sku: product.sku) == nil else { throw CartError.productExists(product.sku) }
            try storage.insertProduct(product)
            return product
        }
    }

    /// Changes an existing product. A `stockChange` applies to the stock as this unit reads it,
    /// so a checkout that commits meanwhile is not undone. A price, stock or active flag another
    /// client stored out of range is replaced by an update that gives one.
    ///
    /// - Throws: `CartError.unknownProduct`, `.stockChangeRefused` (untracked stock, or a change
    ///   that takes it below zero or past `Int.max`), the errors of `validated(_:)`,
    ///   `StoredDataError` for a stored name, price, stock or active flag out of range that the
    ///   update keeps or counts from, or a storage error.
    @discardableResult
    public func updateProduct(_ sku: String, with update: ProductUpdate) throws -> Product {
        let sku = try Validation.sku(sku)
        return try repository.write { storage in
            guard let stored = try storage.productAsStored(sku: sku) else { throw CartError.unknownProduct(sku) }
            var product = stored.product
            // A price, stock or active flag another client stored out of range is replaced when
            // the update gives one; kept, or counted from, it is refused as every read refuses it.
            if update.price == nil { try Self.checkStoredPrice(of: product) }
            if update.stock == nil { try Self.checkStoredStock(of: product) }
            if update.isActive == nil {
                _ = try StoredDataError.checked(
                    stored.activeFlag, in: StoredRange.activeFlag, "the active flag of product '\(DisplayText.clean(sku))'")
            }
            if let name = update.name { product.name = name }
            if let price = update.price { product.price = price }
            if let stock = update.stock { product.stock = stock.units }
            if let change = update.stockChange { product.stock = try Self.stock(product.stock, changedBy: change, of: sku) }
            if let isActive = update.isActive { product.isActive = isActive }
            // A name kept as another client stored it is the store's problem, not the input's;
            // one that earlier versions let in stays (the rules for a new name are for names given).
            if update.name == nil, let error = StoredDataError.unusableName(product.name, ofProduct: sku) { throw error }
            let settings = try storage.settings()
            product = try update.name == nil ? Self.validatedKeepingName(product, settings: settings) : Self.validated(product, settings: settings)
            try storage.updateProduct(product)
            return product
        }
    }

    /// Throws the `StoredDataError` a read gives for `product`'s price stored out of
    /// `StoredRange.price`.
    static func checkStoredPrice(of product: Product) throws(StoredDataError) {
        _ = try StoredDataError.checked(
            product.price.minorUnits, in: StoredRange.price, "the price of product '\(DisplayText.clean(product.sku))'")
    }

    /// Throws the `StoredDataError` a read gives for `product`'s stock stored out of
    /// `StoredRange.stock`.
    static func checkStoredStock(of product: Product) throws(StoredDataError) {
        guard let stock = product.stock else { return }
        _ = try StoredDataError.checked(
            Int64(stock), in: StoredRange.stock, "the stock of product '\(DisplayText.clean(product.sku))'")
    }

    /// `stock` with `change` units added, if it is tracked and the result is from 0 to `Int.max`.
    static func stock(_ stock: Int?, changedBy change: Int, of sku: String) throws(CartError) -> Int {
        guard let stock else { throw .stockChangeRefused(sku: sku, change: change, stock: nil) }
        let (changed, overflow) = stock.addingReportingOverflow(change)
        guard !overflow, changed >= 0 else { throw .stockChangeRefused(sku: sku, change: change, stock: stock) }
        return changed
    }

    /// The product with SKU and name trimmed, if every field is acceptable for this store.
    ///
    /// - Throws: `CartError.invalidSKU`, `.invalidName`, `.currencyMismatch`,
    ///   `.invalidAmount` (a negative price or one above `Product.maximumPriceMinorUnits`), or
    ///   `.invalidStock`.
    public static func validated(_ product: Product, settings: StoreSettings) throws(CartError) -> Product {
        var product = product
        product.name = try Validation.name(product.name)
        return try validatedKeepingName(product, settings: settings)
    }

    /// `validated(_:settings:)` but for the name, which the product keeps as stored.
    static func validatedKeepingName(_ product: Product, settings: StoreSettings) throws(CartError) -> Product {
        var product = product
        product.sku = try Validation.sku(product.sku)
        try checkPrice(product.price, settings: settings)
        if let stock = product.stock, stock < 0 { throw .invalidStock(stock) }
        return product
    }

    /// `product` as `addProduct(_:)` would add it to a store of `settings`, or the error it
    /// would refuse it with (a SKU it could not add included), for a caller that checks before it
    /// opens a store: the CLI, whose `products add` would otherwise create a store only to refuse.
    public static func validatedNew(_ product: Product, settings: StoreSettings) throws(CartError) -> Product {
        _ = try Validation.newSKU(product.sku)
        return try validated(product, settings: settings)
    }

    /// A price must be in the store currency, from 0 to `Product.maximumPriceMinorUnits`.
    static func checkPrice(_ price: Money, settings: StoreSettings) throws(CartError) {
        guard price.currency == settings.currency else {
            throw Currency.mismatch(price.currency, settings.currency)
        }
        guard price.minorUnits >= 0 else {
            throw .invalidAmount(price.decimalString, reason: "prices cannot be negative")
        }
        guard price.minorUnits <= Product.maximumPriceMinorUnits else {
            let maximum = Money(minorUnits: Product.maximumPriceMinorUnits, currency: price.currency)
            throw .invalidAmount(price.decimalString, reason: "prices are at most \(maximum.decimalString)")
        }
    }
}
