import CartCore
import Testing

/// Store settings, products and imports.
enum CatalogContract {
    static let cases = ContractCase.suite(
        "Store settings, products and imports", key: "catalog",
        [
            ("initialSettings", "a new store has the settings it was created with", initialSettings),
            ("initialSettingRanges", "a store created with settings outside their range refuses them as input", initialSettingRanges),
            ("changeCaps", "changed caps are stored and govern the rules", changeCaps),
            ("settingRanges", "settings outside their range are refused and nothing is stored", settingRanges),
            ("currencyChangesWhileEmpty", "the currency may change while there are no products", currencyChangesWhileEmpty),
            ("currencyLocked", "the currency is locked once products exist", currencyLocked),
            ("currencyLockedByOrders", "the currency stays locked while orders exist, also once every product is gone", currencyLockedByOrders),
            ("trimmedProduct", "SKU and name are stored trimmed and read back exactly", trimmedProduct),
            ("invalidProducts", "products with a bad SKU, name, price or stock are refused", invalidProducts),
            ("addAndUpdate", "a SKU is added once; updates change only what they name", addAndUpdate),
            ("searchAndPage", "products(matching:) finds text in SKUs and names in any case, and pages by SKU", searchAndPage),
            ("deleteProduct", "a product no cart holds is deleted, orders keep their lines; one a cart holds is refused, naming the carts", deleteProduct),
            ("importCreatesAndUpdates", "an import creates and updates products in one unit", importCreatesAndUpdates),
            ("importAllOrNothing", "an import with one bad item stores nothing and names the item", importAllOrNothing),
            ("importKeepsAbsentFields", "an import item's absent fields keep what is stored, and the summary counts each field changed", importKeepsAbsentFields),
            ("importNewProductDefaults", "a new product from an import is active with stock untracked unless the item says otherwise", importNewProductDefaults),
            ("importNewProductIncomplete", "a new product without a name or a price fails the whole import, naming the item", importNewProductIncomplete),
            ("largeImportCounts", "a large import counts created, updated and unchanged exactly, in any order", largeImportCounts),
            ("largeImportAllOrNothing", "a large import with a repeated SKU or a bad item stores nothing and names the first problem", largeImportAllOrNothing),
            ("importRollsBack", "an import that fails after any number of products leaves every product as it was", importRollsBack),
            ("asciiIdentifiers", "SKUs and cart IDs are printable ASCII, so NFC and NFD spellings cannot collide", asciiIdentifiers),
            ("maximumPrice", "prices above the maximum are refused on add, update and import", maximumPrice),
        ])

    static func initialSettings(_ backend: Backend) throws {
        #expect(try Store(backend, seeded: false).service.settings() == .defaults)
        let yen = StoreSettings(currency: .jpy, maxLineQuantity: 5, maxLinesPerCart: 3)
        let store = try Store(backend, settings: yen, seeded: false)
        #expect(try store.service.settings() == yen)
        try store.service.addProduct(Product(sku: "tea", name: "Tea", price: Money(minorUnits: 500, currency: .jpy)))
        #expect(throws: CartError.lineQuantityCapExceeded(sku: "tea", requested: 6, cap: 5)) {
            try store.service.add("tea", quantity: 6, to: "alice")
        }
        try store.service.add("tea", quantity: 5, to: "alice")
        #expect(try store.service.cart("alice").subtotal == Money(minorUnits: 2500, currency: .jpy))
    }

    // A backend may refuse when it is created or when the store is first used.
    static func initialSettingRanges(_ backend: Backend) throws {
        let bad = StoreSettings(currency: .usd, maxLineQuantity: 0, maxLinesPerCart: 5)
        #expect(throws: CartError.invalidSetting(name: "Maximum line quantity", value: 0, range: 1...1_000_000)) {
            _ = try CartService(repository: try backend.makeRepository(settings: bad)).settings()
        }
    }

    static func changeCaps(_ backend: Backend) throws {
        let store = try Store(backend)
        let updated = try store.service.updateSettings(maxLineQuantity: 3, maxLinesPerCart: 1)
        #expect(updated == StoreSettings(currency: .usd, maxLineQuantity: 3, maxLinesPerCart: 1))
        #expect(try store.service.settings() == updated)
        #expect(throws: CartError.lineQuantityCapExceeded(sku: "apple", requested: 4, cap: 3)) {
            try store.service.add("apple", quantity: 4, to: "alice")
        }
        try store.service.add("apple", quantity: 3, to: "alice")
        #expect(throws: CartError.lineCountCapExceeded(cart: "alice", cap: 1)) {
            try store.service.add("pear", to: "alice")
        }
    }

    static func settingRanges(_ backend: Backend) throws {
        let store = try Store(backend)
        #expect(throws: CartError.invalidSetting(name: "Maximum line quantity", value: 0, range: 1...1_000_000)) {
            try store.service.updateSettings(maxLineQuantity: 0, maxLinesPerCart: 5)
        }
        #expect(throws: CartError.invalidSetting(name: "Maximum lines per cart", value: 10_001, range: 1...10_000)) {
            try store.service.updateSettings(maxLineQuantity: 5, maxLinesPerCart: 10_001)
        }
        #expect(try store.service.settings() == .defaults)
    }

    static func currencyChangesWhileEmpty(_ backend: Backend) throws {
        let store = try Store(backend, seeded: false)
        try store.service.updateSettings(currency: .eur)
        #expect(try store.service.settings().currency == .eur)
        #expect(throws: CartError.currencyMismatch("USD", "EUR")) { try store.service.addProduct(Catalog.apple) }
        try store.service.addProduct(Product(sku: "tea", name: "Tea", price: Money(minorUnits: 350, currency: .eur)))
        try store.service.add("tea", to: "alice")
        #expect(try store.service.cart("alice").subtotal.formatted == "€3.50")
    }

    static func currencyLocked(_ backend: Backend) throws {
        let store = try Store(backend)
        #expect(throws: CartError.currencyLocked(current: "USD", requested: "EUR")) {
            try store.service.updateSettings(currency: .eur, maxLineQuantity: 5)
        }
        #expect(try store.service.settings() == .defaults, "a refused update changes no setting")
        try store.service.updateSettings(currency: .usd, maxLineQuantity: 5)
        #expect(try store.service.settings().maxLineQuantity == 5)
    }

    static func currencyLockedByOrders(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.add("apple", to: "alice")
        _ = try store.service.checkout("alice")
        for product in try store.service.products(includeInactive: true) { try store.service.deleteProduct(product.sku) }
        #expect(throws: CartError.currencyLocked(current: "USD", requested: "EUR")) {
            try store.service.updateSettings(currency: .eur)
        }
        #expect(try store.service.order(OrderNumber(rawValue: 1)).total.currency == .usd)
    }

    static func trimmedProduct(_ backend: Backend) throws {
        let store = try Store(backend, seeded: false)
        let longSKU = String(repeating: "x", count: 63) + "~"
        let longName = String(repeating: "名", count: 199) + "🍏"
        let maximum = usd(Product.maximumPriceMinorUnits)
        try store.service.addProduct(Product(sku: " \tfig\n", name: "  Fig ", price: usd(0)))
        try store.service.addProduct(Product(sku: longSKU, name: longName, price: maximum, stock: 0))
        #expect(try store.service.product("fig") == Product(sku: "fig", name: "Fig", price: usd(0)))
        #expect(try store.service.product(longSKU) == Product(sku: longSKU, name: longName, price: maximum, stock: 0))
        #expect(try store.service.products().map(\.sku) == ["fig", longSKU])
    }

    static func invalidProducts(_ backend: Backend) throws {
        let store = try Store(backend, seeded: false)
        let s = store.service
        #expect(throws: CartError.invalidSKU("  ", reason: "it is empty")) {
            try s.addProduct(Product(sku: "  ", name: "Fig", price: usd(1)))
        }
        let tooLong = String(repeating: "x", count: 65)
        #expect(throws: CartError.invalidSKU(tooLong, reason: "it is longer than 64 characters")) {
            try s.addProduct(Product(sku: tooLong, name: "Fig", price: usd(1)))
        }
        #expect(throws: CartError.invalidSKU("f\u{0}g", reason: "it contains control characters")) {
            try s.addProduct(Product(sku: "f\u{0}g", name: "Fig", price: usd(1)))
        }
        #expect(throws: CartError.invalidName("", reason: "it is empty")) {
            try s.addProduct(Product(sku: "fig", name: "", price: usd(1)))
        }
        #expect(throws: CartError.invalidName("F\u{7}ig", reason: "it contains control characters")) {
            try s.addProduct(Product(sku: "fig", name: "F\u{7}ig", price: usd(1)))
        }
        #expect(throws: CartError.invalidStock(-1)) {
            try s.addProduct(Product(sku: "fig", name: "Fig", price: usd(1), stock: -1))
        }
        #expect(throws: CartError.invalidAmount("-0.01", reason: "prices cannot be negative")) {
            try s.addProduct(Product(sku: "fig", name: "Fig", price: usd(-1)))
        }
        #expect(try s.products(includeInactive: true).isEmpty)
    }

    static func addAndUpdate(_ backend: Backend) throws {
        let store = try Store(backend)
        #expect(throws: CartError.productExists("apple")) {
            try store.service.addProduct(Product(sku: " apple", name: "Other", price: usd(1)))
        }
        #expect(throws: CartError.unknownProduct("banana")) {
            try store.service.updateProduct("banana", with: ProductUpdate(price: usd(1)))
        }
        #expect(throws: CartError.invalidStock(-3)) {
            try store.service.updateProduct("pear", with: ProductUpdate(stock: .tracked(-3)))
        }
        try store.service.updateProduct("pear", with: ProductUpdate(stock: .untracked, isActive: false))
        #expect(try store.service.product("pear") == Product(sku: "pear", name: "Pear", price: usd(99), isActive: false))
        #expect(try store.service.products().map(\.sku) == ["apple", "plum"])
        #expect(try store.service.products(includeInactive: true).map(\.sku) == ["apple", "kiwi", "pear", "plum"])
        #expect(throws: CartError.unknownProduct("banana")) { try store.service.product("banana") }
    }

    static func searchAndPage(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.addProduct(Product(sku: "PEAR-2", name: "Nashi", price: usd(150)))
        try store.service.addProduct(Product(sku: "fig", name: "Grüne Birne (pear)", price: usd(40)))
        let s = store.service
        #expect(try s.products(matching: ProductQuery(text: "PeA")).products.map(\.sku) == ["PEAR-2", "fig", "pear"])
        #expect(try s.products(matching: ProductQuery(text: "GRÜNE")).products.map(\.sku) == ["fig"])
        #expect(try s.products(matching: ProductQuery(text: "kiwi")).products.isEmpty, "inactive products only when asked")
        #expect(try s.products(matching: ProductQuery(includeInactive: true, text: "kiwi")).products.map(\.sku) == ["kiwi"])
        #expect(try s.products(matching: ProductQuery(text: "")).products.count == 5)
        var query = ProductQuery(includeInactive: true, limit: 2)
        var pages: [[String]] = []
        while true {
            let page = try s.products(matching: query)
            pages.append(page.products.map(\.sku))
            guard let next = page.next else { break }
            query.after = next
        }
        #expect(pages == [["PEAR-2", "apple"], ["fig", "kiwi"], ["pear", "plum"]])
        #expect(try s.products(matching: ProductQuery(after: "pear")).products.map(\.sku) == ["plum"])
        #expect(try s.products(matching: ProductQuery(limit: 6)).next == nil)
        for limit in [0, 10_001] {
            #expect(throws: CartError.invalidLimit(limit)) { try s.products(matching: ProductQuery(limit: limit)) }
        }
    }

    static func deleteProduct(_ backend: Backend) throws {
        let store = try Store(backend)
        let order = try store.placeOrder("alice", [("pear", 2), ("apple", 1)])
        try store.service.add("plum", to: "bob")
        try store.service.add("plum", to: "anna")
        try store.service.add("pear", to: "carol")
        try store.service.remove("pear", from: "carol")
        #expect(try store.service.deleteProduct("pear") == Product(sku: "pear", name: "Pear", price: usd(99), stock: 3))
        #expect(throws: CartError.unknownProduct("pear")) { try store.service.product("pear") }
        #expect(try store.service.products(includeInactive: true).map(\.sku) == ["apple", "kiwi", "plum"])
        #expect(try store.service.order(order.number) == order, "the order keeps its frozen lines")
        try store.expectRefusal(.productInCarts(sku: "plum", carts: ["anna", "bob"])) { try store.service.deleteProduct("plum") }
        try store.expectRefusal(.unknownProduct("pear")) { try store.service.deleteProduct("pear") }
        try store.service.deleteLine("plum", from: "anna")
        try store.service.clear("bob")
        #expect(try store.service.deleteProduct(" plum ").sku == "plum")
        try store.service.addProduct(Catalog.pear)
        #expect(try store.service.product("pear") == Catalog.pear, "a deleted SKU can be added again")
        let many = (0..<7).map { "cart-\($0)" }
        for cart in many { try store.service.add("apple", to: cart) }
        let error = CartError.productInCarts(sku: "apple", carts: many)
        try store.expectRefusal(error) { try store.service.deleteProduct("apple") }
        #expect(
            error.description == "Product 'apple' is in 7 carts ('cart-0', 'cart-1', 'cart-2', 'cart-3', 'cart-4' "
                + "and 2 more); remove it from those carts before deleting it.")
    }

    static func importCreatesAndUpdates(_ backend: Backend) throws {
        let store = try Store(backend)
        let summary = try store.service.importProducts([
            Catalog.apple,
            Product(sku: "pear", name: "Pear", price: usd(89), stock: 7),
            Product(sku: "fig", name: "Fig", price: usd(40)),
        ])
        #expect(summary.created == 1)
        #expect(summary.updated == 1)
        #expect(summary.unchanged == 1)
        #expect(try store.service.product("pear") == Product(sku: "pear", name: "Pear", price: usd(89), stock: 7))
        #expect(try store.service.product("fig").price == usd(40))
    }

    static func importAllOrNothing(_ backend: Backend) throws {
        let store = try Store(backend)
        let before = try store.state()
        let good = Product(sku: "fig", name: "Fig", price: usd(40))
        let changed = Product(sku: "apple", name: "Apple", price: usd(1))
        #expect(throws: CartError.invalidImportItem(index: 2, reason: .invalidStock(-1))) {
            try store.service.importProducts([good, changed, Product(sku: "x", name: "X", price: usd(1), stock: -1)])
        }
        #expect(throws: CartError.invalidImportItem(index: 1, reason: .invalidSKU("", reason: "it is empty"))) {
            try store.service.importProducts([good, Product(sku: "", name: "X", price: usd(1))])
        }
        #expect(throws: CartError.duplicateImportSKU("fig", firstIndex: 0, index: 2)) {
            try store.service.importProducts([good, changed, Product(sku: " fig ", name: "Fig", price: usd(2))])
        }
        #expect(try store.state() == before)
    }

    static func importKeepsAbsentFields(_ backend: Backend) throws {
        let store = try Store(backend)
        // A supplier's price sheet: SKUs and prices only. pear tracks stock, kiwi is off sale.
        let summary = try store.service.importProducts([
            ProductImport(sku: "pear", price: usd(89)), ProductImport(sku: "kiwi", price: usd(300)),
            ProductImport(sku: "plum", price: usd(275)),
        ])
        #expect(try store.service.product("pear") == Product(sku: "pear", name: "Pear", price: usd(89), stock: 5))
        #expect(try store.service.product("kiwi") == Catalog.kiwi, "an unchanged price changes nothing, and kiwi stays off sale")
        #expect(try store.service.product("plum") == Product(sku: "plum", name: "Plum", price: usd(275), stock: 10))
        #expect(summary == .init(created: 0, updated: 2, unchanged: 1, changed: .init(names: 0, prices: 2, stock: 0, active: 0)))
        // Each field on its own, and every field at once.
        let fields = try store.service.importProducts([
            ProductImport(sku: "kiwi", isActive: true), ProductImport(sku: "pear", stock: .untracked),
            ProductImport(sku: "plum", stock: .tracked(3)), ProductImport(sku: " apple ", name: "Red apple"),
        ])
        #expect(fields == .init(created: 0, updated: 4, unchanged: 0, changed: .init(names: 1, prices: 0, stock: 2, active: 1)))
        #expect(try store.service.product("kiwi").isActive)
        #expect(try store.service.product("pear").stock == nil)
        #expect(try store.service.product("plum").stock == 3)
        #expect(try store.service.product("apple") == Product(sku: "apple", name: "Red apple", price: usd(125)))
        let whole = try store.service.importProducts([
            ProductImport(sku: "pear", name: "Pear", price: usd(99), stock: .tracked(5), isActive: false)
        ])
        #expect(whole.changed == .init(names: 0, prices: 1, stock: 1, active: 1))
        #expect(try store.service.product("pear") == Product(sku: "pear", name: "Pear", price: usd(99), isActive: false, stock: 5))
    }

    static func importNewProductDefaults(_ backend: Backend) throws {
        let store = try Store(backend)
        let summary = try store.service.importProducts([
            ProductImport(sku: "fig", name: "Fig", price: usd(40)),
            ProductImport(sku: "date", name: "Date", price: usd(10), stock: .tracked(4), isActive: false),
            ProductImport(sku: "pear", name: "Pear", price: usd(99)),
        ])
        #expect(summary == .init(created: 2, updated: 0, unchanged: 1, changed: .init(names: 0, prices: 0, stock: 0, active: 0)))
        #expect(try store.service.product("fig") == Product(sku: "fig", name: "Fig", price: usd(40)))
        #expect(try store.service.product("date") == Product(sku: "date", name: "Date", price: usd(10), isActive: false, stock: 4))
        #expect(try store.service.product("pear") == Catalog.pear, "a name and price equal to the stored ones change nothing")
    }

    static func importNewProductIncomplete(_ backend: Backend) throws {
        let store = try Store(backend)
        let news = (0..<100).map { ProductImport(sku: "n\($0)", name: "New \($0)", price: usd(100)) }
        try store.expectRefusal(.invalidImportItem(index: 101, reason: .newProductIncomplete(sku: "fig", missing: ["price"]))) {
            try store.service.importProducts(news + [ProductImport(sku: "pear", price: usd(1)), ProductImport(sku: "fig", name: "Fig")])
        }
        try store.expectRefusal(.invalidImportItem(index: 0, reason: .newProductIncomplete(sku: "fig", missing: ["name", "price"]))) {
            try store.service.importProducts([ProductImport(sku: "fig", stock: .tracked(3))] + news)
        }
        #expect(
            CartError.newProductIncomplete(sku: "fig", missing: ["name", "price"]).description
                == "'fig' is not in the catalog, so it is a new product and needs a name and a price.")
    }

    static func largeImportCounts(_ backend: Backend) throws {
        let store = try Store(backend, seeded: false)
        func item(_ number: Int, price: Int64 = 100) -> Product {
            Product(sku: "p\(number)", name: "Product \(number)", price: usd(price), stock: number % 3 == 0 ? nil : number)
        }
        #expect(try store.service.importProducts((0..<100).map { item($0) }).created == 100)
        // 0..<50 unchanged, 50..<100 repriced, 100..<230 new, interleaved so that batches mix them.
        let order = (0..<230).map { $0 * 7 % 230 }
        let summary = try store.service.importProducts(order.map { item($0, price: (50..<100).contains($0) ? 250 : 100) })
        #expect([summary.created, summary.updated, summary.unchanged] == [130, 50, 50])
        let stored = try store.service.products(includeInactive: true)
        #expect(stored.count == 230)
        #expect(stored.filter { $0.price == usd(250) }.map(\.sku).sorted() == (50..<100).map { "p\($0)" }.sorted())
        #expect(try store.service.product("p229") == item(229))
        #expect(try store.service.product("p99") == item(99, price: 250))
        // Importing the same again changes nothing.
        let again = try store.service.importProducts(stored)
        #expect([again.created, again.updated, again.unchanged] == [0, 0, 230])
    }

    static func largeImportAllOrNothing(_ backend: Backend) throws {
        let store = try Store(backend)
        let before = try store.state()
        var items = (0..<200).map { Product(sku: "n\($0)", name: "New \($0)", price: usd(100)) }
        items[150] = Product(sku: " n3", name: "Again", price: usd(5))
        #expect(throws: CartError.duplicateImportSKU("n3", firstIndex: 3, index: 150)) {
            try store.service.importProducts(items)
        }
        #expect(try store.state() == before)
        // A repeated SKU before a bad item is the first problem, a bad item before one the first.
        var bad = items
        bad[170] = Product(sku: "n170", name: "", price: usd(1))
        #expect(throws: CartError.duplicateImportSKU("n3", firstIndex: 3, index: 150)) {
            try store.service.importProducts(bad)
        }
        bad[120] = Product(sku: "n120", name: "X", price: usd(-1))
        #expect(throws: CartError.invalidImportItem(index: 120, reason: .invalidAmount("-0.01", reason: "prices cannot be negative"))) {
            try store.service.importProducts(bad)
        }
        // A SKU repeated within the last, partial batch, and one repeating an existing product.
        var tail = (0..<130).map { Product(sku: "t\($0)", name: "Tail \($0)", price: usd(100)) }
        tail[129] = Product(sku: "t128", name: "Tail again", price: usd(100))
        #expect(throws: CartError.duplicateImportSKU("t128", firstIndex: 128, index: 129)) {
            try store.service.importProducts(tail)
        }
        tail[129] = Product(sku: "apple", name: "Apple", price: usd(1))
        tail[5] = Product(sku: "apple", name: "Apple", price: usd(2))
        #expect(throws: CartError.duplicateImportSKU("apple", firstIndex: 5, index: 129)) {
            try store.service.importProducts(tail)
        }
        #expect(try store.state() == before)
    }

    static func importRollsBack(_ backend: Backend) throws {
        let store = try Store(backend)
        var items = (0..<150).map { Product(sku: "n\($0)", name: "New \($0)", price: usd(100)) }
        items[10] = Catalog.plum  // stored as it is: the first batch is not all new
        items[70] = Product(sku: "pear", name: "Pear", price: usd(89), stock: 7)  // in the second batch
        items[140] = Product(sku: "apple", name: "Apple", price: usd(1))  // in the tail
        let before = try store.state()
        let countBefore = try store.repository.read { try $0.productCount() }
        // The import first offers all 150 to insertAbsentProducts, which counts one write per
        // product, then updates the two changed ones. Faults: at the first product, after one,
        // after exactly one batch of 64, midway through the second batch, in the tail, at the
        // last product, and at each update; the 153rd write does not exist.
        for failOnWrite in [1, 2, 65, 76, 147, 150, 151, 152] {
            let faulty = CartService(repository: FaultInjectingRepository(base: store.repository, failOnWrite: failOnWrite))
            #expect(throws: FaultInjectingRepository.InjectedFault.self) { try faulty.importProducts(items) }
            #expect(try store.state() == before, "fault at write \(failOnWrite)")
            #expect(try store.repository.read { try $0.productCount() } == countBefore, "fault at write \(failOnWrite)")
        }
        #expect(countBefore == 4)
        let unfaulted = CartService(repository: FaultInjectingRepository(base: store.repository, failOnWrite: 153))
        let summary = try unfaulted.importProducts(items)
        #expect([summary.created, summary.updated, summary.unchanged] == [147, 2, 1])
        #expect(try store.repository.read { try $0.productCount() } == 151)
    }

    static func asciiIdentifiers(_ backend: Backend) throws {
        let store = try Store(backend)
        for sku in ["caf\u{E9}", "cafe\u{301}", "\u{FF41}pple"] {
            try store.expectRefusal(.invalidSKU(sku, reason: "use printable ASCII characters only")) {
                try store.service.addProduct(Product(sku: sku, name: "Unicode", price: usd(1)))
            }
        }
        for cart in ["ren\u{E9}", "rene\u{301}"] {
            try store.expectRefusal(.invalidCartID(cart, reason: "use printable ASCII characters only")) {
                try store.service.add("apple", to: cart)
            }
        }
        try store.service.addProduct(Product(sku: "caf-e", name: "Caf\u{E9} cr\u{E8}me", price: usd(1)))
        #expect(try store.service.product("caf-e").name == "Caf\u{E9} cr\u{E8}me")
    }

    static func maximumPrice(_ backend: Backend) throws {
        let store = try Store(backend)
        let tooHigh = usd(Product.maximumPriceMinorUnits + 1)
        let error = CartError.invalidAmount("1000000.01", reason: "prices are at most 1000000.00")
        try store.expectRefusal(error) { try store.service.addProduct(Product(sku: "gold", name: "Gold", price: tooHigh)) }
        try store.expectRefusal(error) { try store.service.updateProduct("apple", with: ProductUpdate(price: tooHigh)) }
        try store.expectRefusal(.invalidImportItem(index: 0, reason: error)) {
            try store.service.importProducts([Product(sku: "gold", name: "Gold", price: tooHigh)])
        }
    }
}
