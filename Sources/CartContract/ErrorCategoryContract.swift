import CartCore
import Testing
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Every error a service call throws says what kind of failure it is, so that any front end
/// maps it without knowing the backend: each `CartError` reports the `ErrorCategory` whose
/// documentation describes it, and a value at its limit in storage is a damaged store.
enum ErrorCategoryContract {
    static let cases = ContractCase.suite(
        "Errors report their category", key: "errorCategories",
        [
            ("cartErrors", "every CartError a service call throws reports the category its kind documents", cartErrors),
            ("storedValues", "a stored value the service cannot use is a StoredDataError of a damaged store", storedValues),
        ])

    /// One way to make a service call fail, the error it must throw and that error's category.
    private struct Refusal {
        let error: CartError
        let category: ErrorCategory
        let call: () throws -> Void
    }

    static func cartErrors(_ backend: Backend) throws {
        let store = try Store(backend)
        let s = store.service
        try s.add("apple", quantity: 60, to: "alice")
        try s.add("pear", to: "alice")
        _ = try s.checkout("alice", idempotencyKey: "alice-1")
        try s.add("apple", quantity: 60, to: "alice")
        try s.add("apple", to: "bob")
        let capped = try Store(backend, settings: StoreSettings(currency: .usd, maxLineQuantity: 99, maxLinesPerCart: 1))
        try capped.service.add("apple", to: "alice")
        try capped.service.updateProduct("apple", with: ProductUpdate(isActive: false))
        // No checkout can place orders this large; another client writing storage directly can.
        let rich = try Store(backend)
        let big = usd(Int64.max / 2 + 1)
        let bigLine = OrderLine(sku: "gold", name: "Gold", unitPrice: big, quantity: 1, lineTotal: big)
        try rich.repository.write { storage in
            for number: Int64 in 1...2 {
                try storage.insertOrder(
                    Order(
                        number: OrderNumber(rawValue: number), cartID: "dave", placedAt: rich.clock.now, currency: .usd,
                        totalItems: 1, total: big, idempotencyKey: nil, lines: [bigLine]))
            }
        }
        let tooLong = String(repeating: "x", count: 200)
        let (day1, day2) = (store.clock.now, store.clock.now.addingTimeInterval(86_400))
        let eastOfUTC = try #require(UTCOffset(parsing: "+02:00"))
        let aliceTotal = try s.cart("alice").subtotal
        let refusals: [Refusal] = [
            .init(error: .invalidQuantity(given: 0, range: 1...Int.max), category: .invalidInput) { try s.add("apple", quantity: 0, to: "alice") },
            .init(error: .invalidAmount("-0.01", reason: "prices cannot be negative"), category: .invalidInput) {
                try s.addProduct(Product(sku: "fig", name: "Fig", price: usd(-1)))
            },
            .init(error: .unknownCurrency("XYZ"), category: .invalidInput) { _ = try Currency(code: "XYZ") },
            .init(error: .invalidCurrencySymbol("\u{1B}[31m$"), category: .invalidInput) {
                _ = try Currency(code: "XYZ", minorUnitExponent: 2, symbol: "\u{1B}[31m$")
            },
            .init(error: .builtInCurrencyRedefined("JPY"), category: .invalidInput) {
                _ = try Currency(code: "JPY", minorUnitExponent: 2)
            },
            .init(error: .currencyMismatch("EUR", "USD"), category: .invalidInput) {
                try s.addProduct(Product(sku: "fig", name: "Fig", price: Money(minorUnits: 1, currency: .eur)))
            },
            .init(error: .currencyLocked(current: "USD", requested: "EUR"), category: .refused) { try s.updateSettings(currency: .eur) },
            .init(error: .invalidSKU("", reason: "it is empty"), category: .invalidInput) { try s.add("", to: "alice") },
            .init(error: .invalidName("", reason: "it is empty"), category: .invalidInput) {
                try s.addProduct(Product(sku: "fig", name: "", price: usd(1)))
            },
            .init(error: .invalidCartID(tooLong, reason: "it is longer than 128 characters"), category: .invalidInput) {
                try s.add("apple", to: tooLong)
            },
            .init(error: .invalidIdempotencyKey("", reason: "it is empty"), category: .invalidInput) {
                _ = try s.checkout("alice", idempotencyKey: "")
            },
            .init(error: .invalidSetting(name: "Maximum line quantity", value: 0, range: 1...1_000_000), category: .invalidInput) {
                try s.updateSettings(maxLineQuantity: 0)
            },
            .init(error: .invalidStock(-1), category: .invalidInput) {
                try s.updateProduct("pear", with: ProductUpdate(stock: .tracked(-1)))
            },
            .init(error: .stockChangeRefused(sku: "apple", change: 1, stock: nil), category: .refused) {
                try s.updateProduct("apple", with: ProductUpdate(stockChange: 1))
            },
            .init(error: .unknownProduct("ghost"), category: .notFound) { try s.add("ghost", to: "alice") },
            .init(error: .inactiveProduct("kiwi"), category: .refused) { try s.add("kiwi", to: "alice") },
            .init(error: .productExists("apple"), category: .conflict) { try s.addProduct(Catalog.apple) },
            .init(error: .productInCarts(sku: "apple", carts: ["alice", "bob"]), category: .conflict) {
                try s.deleteProduct("apple")
            },
            .init(error: .lineQuantityCapExceeded(sku: "apple", requested: 100, cap: 99), category: .refused) {
                try s.add("apple", quantity: 40, to: "alice")
            },
            .init(error: .lineCountCapExceeded(cart: "alice", cap: 1), category: .refused) {
                try capped.service.add("plum", to: "alice")
            },
            .init(error: .insufficientStock(sku: "pear", requested: 5, available: 4), category: .refused) {
                try s.add("pear", quantity: 5, to: "alice")
            },
            .init(error: .notInCart(sku: "plum", cart: "alice"), category: .notFound) { try s.remove("plum", from: "alice") },
            .init(error: .versionConflict(cart: "alice", expected: 1, actual: 4), category: .staleVersion) {
                try s.add("apple", to: "alice", expectedVersion: 1)
            },
            .init(error: .totalChanged(cart: "alice", expected: usd(1), actual: aliceTotal), category: .conflict) {
                _ = try s.checkout("alice", expectedTotal: usd(1))
            },
            .init(error: .emptyCart("carol"), category: .refused) { _ = try s.checkout("carol") },
            .init(error: .cannotCheckOut(cart: "alice", problems: [.inactiveProduct("apple")]), category: .refused) {
                _ = try capped.service.checkout("alice")
            },
            .init(error: .idempotencyKeyReused(key: "alice-1", cart: "alice"), category: .conflict) {
                _ = try s.checkout("bob", idempotencyKey: "alice-1")
            },
            .init(error: .orderNotFound(99), category: .notFound) { _ = try s.order(99) },
            .init(error: .mergeIntoSelf("alice"), category: .refused) { try s.merge(from: "alice", into: "alice") },
            .init(error: .cartNotFound("nobody"), category: .notFound) { try s.merge(from: "nobody", into: "alice") },
            .init(error: .invalidImportItem(index: 0, reason: .invalidStock(-2)), category: .invalidInput) {
                try s.importProducts([Product(sku: "fig", name: "Fig", price: usd(1), stock: -2)])
            },
            .init(
                error: .invalidImportItem(index: 0, reason: .newProductIncomplete(sku: "fig", missing: ["name"])),
                category: .invalidInput
            ) {
                try s.importProducts([ProductImport(sku: "fig", price: usd(1))])
            },
            .init(error: .duplicateImportSKU("fig", firstIndex: 0, index: 1), category: .invalidInput) {
                try s.importProducts(Array(repeating: Product(sku: "fig", name: "Fig", price: usd(1)), count: 2))
            },
            .init(error: .invalidLimit(0), category: .invalidInput) { _ = try s.orders(matching: OrderQuery(limit: 0)) },
            .init(error: .emptyDateRange(since: day2, until: day1), category: .invalidInput) {
                _ = try s.orders(matching: OrderQuery(placedOnOrAfter: day2, placedBefore: day1))
            },
            .init(error: .utcOffsetNeedsDays(eastOfUTC, grouping: .product), category: .invalidInput) {
                _ = try s.orderStats(groupedBy: .product, utcOffset: eastOfUTC)
            },
            .init(error: .negativeAge(.seconds(-1)), category: .invalidInput) {
                _ = try s.prune(notChangedFor: .seconds(-1))
            },
            .init(error: .amountOverflow, category: .refused) { _ = try rich.service.orderStats(groupedBy: .total) },
        ]
        var kinds: Set<String> = []
        for refusal in refusals {
            let before = try store.state()
            let thrown = #expect(throws: CartError.self, "\(refusal.error)") { try refusal.call() }
            #expect(thrown == refusal.error)
            #expect(thrown?.category == refusal.category, "\(refusal.error)")
            #expect(thrown.map { ErrorCategory(of: $0) } == refusal.category, "\(refusal.error)")
            #expect(try store.state() == before, "\(refusal.error) changed nothing")
            kinds.insert(kind(of: refusal.error))
            if case .invalidImportItem(_, let reason) = refusal.error { kinds.insert(kind(of: reason)) }
        }
        #expect(kinds.count == 38, "every kind of CartError is thrown once")
    }

    /// The name of an error's kind; a new kind does not compile here until a refusal above
    /// throws it.
    private static func kind(of error: CartError) -> String {
        switch error {
        case .invalidQuantity: "invalidQuantity"
        case .invalidAmount: "invalidAmount"
        case .unknownCurrency: "unknownCurrency"
        case .invalidCurrencySymbol: "invalidCurrencySymbol"
        case .builtInCurrencyRedefined: "builtInCurrencyRedefined"
        case .currencyMismatch: "currencyMismatch"
        case .currencyLocked: "currencyLocked"
        case .amountOverflow: "amountOverflow"
        case .invalidSKU: "invalidSKU"
        case .invalidName: "invalidName"
        case .invalidCartID: "invalidCartID"
        case .invalidIdempotencyKey: "invalidIdempotencyKey"
        case .invalidSetting: "invalidSetting"
        case .invalidStock: "invalidStock"
        case .stockChangeRefused: "stockChangeRefused"
        case .unknownProduct: "unknownProduct"
        case .inactiveProduct: "inactiveProduct"
        case .productExists: "productExists"
        case .productInCarts: "productInCarts"
        case .lineQuantityCapExceeded: "lineQuantityCapExceeded"
        case .lineCountCapExceeded: "lineCountCapExceeded"
        case .insufficientStock: "insufficientStock"
        case .notInCart: "notInCart"
        case .versionConflict: "versionConflict"
        case .totalChanged: "totalChanged"
        case .emptyCart: "emptyCart"
        case .cannotCheckOut: "cannotCheckOut"
        case .idempotencyKeyReused: "idempotencyKeyReused"
        case .orderNotFound: "orderNotFound"
        case .mergeIntoSelf: "mergeIntoSelf"
        case .cartNotFound: "cartNotFound"
        case .invalidImportItem: "invalidImportItem"
        case .newProductIncomplete: "newProductIncomplete"
        case .duplicateImportSKU: "duplicateImportSKU"
        case .invalidLimit: "invalidLimit"
        case .emptyDateRange: "emptyDateRange"
        case .utcOffsetNeedsDays: "utcOffsetNeedsDays"
        case .negativeAge: "negativeAge"
        }
    }

    static func storedValues(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.add("apple", to: "alice")
        try store.repository.write { storage in
            try storage.saveCartHeader(CartHeader(id: "alice", version: Int.max, updatedAt: store.clock.now, lineCount: 1, nextLinePosition: 2), previousVersion: 1)
        }
        let before = try store.state()
        for change in [{ _ = try store.service.add("pear", to: "alice") }, { _ = try store.service.clear("alice") }] {
            let error = #expect(throws: StoredDataError.self) { try change() }
            #expect(error?.category == .damagedStore)
            #expect(error.map { ErrorCategory(of: $0) } == .damagedStore)
        }
        #expect(try store.state() == before)
    }
}
