import CartCore
import Testing

/// Product imports: many products in one unit.
enum ImportContract {
    static let cases = ContractCase.suite(
        "Product imports", key: "imports",
        [
            ("importCreatesAndUpdates", "an import creates and updates products in one unit", importCreatesAndUpdates),
            ("importAllOrNothing", "an import with one bad item stores nothing and names the item", importAllOrNothing),
            ("importKeepsAbsentFields", "an import item's absent fields keep what is stored, and the summary counts each field changed", importKeepsAbsentFields),
            ("importNewProductDefaults", "a new product from an import is active with stock untracked unless the item says otherwise", importNewProductDefaults),
            ("importNewProductIncomplete", "a new product without a name or a price fails the whole import, naming the item", importNewProductIncomplete),
            ("largeImportCounts", "a large import counts created, updated and unchanged exactly, in any order", largeImportCounts),
            ("largeImportAllOrNothing", "a large import with a repeated SKU or a bad item stores nothing and names the first problem", largeImportAllOrNothing),
            ("importRollsBack", "an import that fails after any number of products leaves every product as it was", importRollsBack),
        ])

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
}
