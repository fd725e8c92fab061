extension CartService {
    /// What an import did: how many products it created, updated and left as they were, and
    /// which fields of the updated ones changed.
    public struct ImportSummary: Hashable, Sendable, Codable {
        /// How many updated products had each field changed; a product counts once per field.
        public struct Changes: Hashable, Sendable, Codable {
            /// Products whose name changed.
            public let names: Int
            /// Products whose price changed.
            public let prices: Int
            /// Products whose stock changed (a count, or tracking turned on or off).
            public let stock: Int
            /// Products put on sale or taken off sale.
            public let active: Int

            /// Creates counts.
            public init(names: Int, prices: Int, stock: Int, active: Int) {
                self.names = names
                self.prices = prices
                self.stock = stock
                self.active = active
            }
        }

        /// Products that did not exist before.
        public let created: Int
        /// Existing products of which the import changed a field.
        public let updated: Int
        /// Existing products the import left as they were.
        public let unchanged: Int
        /// What changed in the updated products.
        public let changed: Changes

        /// Creates a summary.
        public init(created: Int, updated: Int, unchanged: Int, changed: Changes) {
            self.created = created
            self.updated = updated
            self.unchanged = unchanged
            self.changed = changed
        }
    }

    /// Creates or updates many products in one atomic unit: all of them or none. Each product
    /// is stored whole, as `importProducts(_:)` with `ProductImport(product)` stores it.
    ///
    /// - Throws: the errors of `importProducts(_:)` for `[ProductImport]`.
    @discardableResult
    public func importProducts(_ products: [Product]) throws -> ImportSummary {
        try repository.write { storage in try Self.importItems(products, into: storage) }
    }

    /// Creates or updates many products in one atomic unit: all of them or none. A field an
    /// item leaves `nil` keeps what the store holds (a price list changes prices and nothing
    /// else); a product the store does not hold yet is created with the item's fields and the
    /// defaults (active, stock not tracked), and needs a name and a price.
    ///
    /// New products go in through the storage's batch insert (`insertAbsentProducts`), so an
    /// import of a new catalog reads no product first; only the items that name stored
    /// products, or that could not create one, are read back.
    ///
    /// - Throws: `CartError.invalidImportItem` naming the first item with a malformed field,
    ///   then `.duplicateImportSKU`, then `.invalidImportItem` with `.newProductIncomplete` for
    ///   the first new product without a name or a price; or a storage error. Nothing is
    ///   stored then.
    @discardableResult
    public func importProducts(_ items: [ProductImport]) throws -> ImportSummary {
        try repository.write { storage in try Self.importItems(items, into: storage) }
    }

    /// The import of either kind of item, in the caller's unit. Specialized for each, so that
    /// whole products go to the batch insert as they are given.
    private static func importItems<Item: ImportItem>(_ items: [Item], into storage: any CartStorageWriter) throws
        -> ImportSummary
    {
        let settings = try storage.settings()
        // Shares the caller's buffer until an item needs trimming: most need none.
        var valid = items
        for index in items.indices where !items[index].isValidAsGiven(settings: settings) {
            let item: Item
            do throws(CartError) {
                item = try items[index].validated(settings: settings)
            } catch {
                // A SKU repeated before this item is the first problem then.
                try checkDistinctSKUs(valid[..<index])
                throw CartError.invalidImportItem(index: index, reason: error)
            }
            if item != items[index] { valid[index] = item }
        }
        try checkDistinctSKUs(valid[...])

        let creatable = Item.newProducts(valid)
        let inserted = try storage.insertAbsentProducts(creatable)
        var stored: [Int] = []
        if creatable.count == valid.count {
            stored = valid.indices.filter { !inserted[$0] }
        } else {
            var next = 0
            for index in valid.indices {
                guard valid[index].newProduct != nil else {
                    stored.append(index)
                    continue
                }
                if !inserted[next] { stored.append(index) }
                next += 1
            }
        }

        var updated = 0
        var names = 0, prices = 0, stock = 0, active = 0
        for (index, old) in zip(stored, try storage.products(skus: stored.map { valid[$0].sku })) {
            guard let old else {
                let item = valid[index]
                throw CartError.invalidImportItem(
                    index: index, reason: .newProductIncomplete(sku: item.sku, missing: item.missingForNewProduct))
            }
            let product = valid[index].applied(to: old)
            guard product != old else { continue }
            try storage.updateProduct(product)
            updated += 1
            if product.name != old.name { names += 1 }
            if product.price != old.price { prices += 1 }
            if product.stock != old.stock { stock += 1 }
            if product.isActive != old.isActive { active += 1 }
        }
        return ImportSummary(
            created: valid.count - stored.count, updated: updated, unchanged: stored.count - updated,
            changed: ImportSummary.Changes(names: names, prices: prices, stock: stock, active: active))
    }

    /// Refuses the first item whose SKU an earlier one has.
    private static func checkDistinctSKUs<Item: ImportItem>(_ items: ArraySlice<Item>) throws(CartError) {
        var firstIndex: [String: Int] = [:]
        firstIndex.reserveCapacity(items.count)
        for index in items.indices {
            if let first = firstIndex.updateValue(index, forKey: items[index].sku) {
                throw .duplicateImportSKU(items[index].sku, firstIndex: first, index: index)
            }
        }
    }
}
