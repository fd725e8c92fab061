import CartCore
import Testing

/// Store settings and products.
enum CatalogContract {
    static let cases = ContractCase.suite(
        "Store settings and products", key: "catalog",
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
            ("stockChange", "a stock change adds to the stock the unit reads; untracked, below zero or past Int.max is refused", stockChange),
            ("searchAndPage", "products(matching:) finds text in SKUs and names in any case, across a large catalog, and pages by SKU", searchAndPage),
            ("deleteProduct", "a product no cart holds is deleted, orders keep their lines; one a cart holds is refused, naming the carts", deleteProduct),
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

    static func stockChange(_ backend: Backend) throws {
        let store = try Store(backend)
        let s = store.service
        try s.add("pear", quantity: 2, to: "alice")
        _ = try s.checkout("alice")
        #expect(try s.updateProduct("pear", with: ProductUpdate(stockChange: 10)).stock == 13)
        #expect(try s.updateProduct("pear", with: ProductUpdate(stockChange: -13)).stock == 0)
        // A refused change refuses the whole update.
        #expect(throws: CartError.stockChangeRefused(sku: "pear", change: -1, stock: 0)) {
            try s.updateProduct("pear", with: ProductUpdate(name: "Green pear", stockChange: -1))
        }
        #expect(try s.product("pear") == Product(sku: "pear", name: "Pear", price: usd(99), stock: 0))
        #expect(throws: CartError.stockChangeRefused(sku: "apple", change: 4, stock: nil)) {
            try s.updateProduct("apple", with: ProductUpdate(stockChange: 4))
        }
        #expect(try s.product("apple").stock == nil)
        // A level set in the same update is what the change applies to.
        #expect(try s.updateProduct("apple", with: ProductUpdate(stock: .tracked(4), stockChange: 2)).stock == 6)
        try s.updateProduct("plum", with: ProductUpdate(stock: .tracked(Int.max)))
        #expect(throws: CartError.stockChangeRefused(sku: "plum", change: 1, stock: Int.max)) {
            try s.updateProduct("plum", with: ProductUpdate(stockChange: 1))
        }
        let lowest = #expect(throws: CartError.self) { try s.updateProduct("plum", with: ProductUpdate(stockChange: Int.min)) }
        #expect(lowest == .stockChangeRefused(sku: "plum", change: Int.min, stock: Int.max))
        #expect(lowest?.description == "Cannot take 9223372036854775808 from the stock of 'plum': it holds \(Int.max).")
        #expect(try s.product("plum").stock == Int.max)
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
        for text in [nil, "pea"] {
            #expect(throws: CartError.invalidSKU("", reason: "it is empty"), "an empty cursor is no page's next") {
                try s.products(matching: ProductQuery(text: text, after: "", limit: 2))
            }
        }
        // A search reads the catalog a batch at a time: its matches are found across batches,
        // and its pages follow one another.
        let catalog = (0..<2_500).map { index in
            Product(
                sku: "item-\(String(index + 10_000))", name: index % 300 == 7 ? "Needle \(index)" : "Hay \(index)",
                price: usd(1), isActive: index % 600 != 7)
        }
        try s.importProducts(catalog)
        let needles = catalog.filter { $0.isActive && $0.name.hasPrefix("Needle") }.map(\.sku)
        #expect(needles.count == 4)
        #expect(try s.products(matching: ProductQuery(text: "NEEDLE")).products.map(\.sku) == needles)
        query = ProductQuery(text: "needle", limit: 3)
        var found: [String] = []
        while true {
            let page = try s.products(matching: query)
            found += page.products.map(\.sku)
            guard let next = page.next else { break }
            query.after = next
        }
        #expect(found == needles)
        #expect(try s.products(matching: ProductQuery(includeInactive: true, text: "needle")).products.count == 9)
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
