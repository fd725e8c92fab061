#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CartCore
import Testing

/// What a service call returns encodes through `CartJSON` to one stable shape and decodes back
/// to the same value, whichever backend it was read from: front ends (the CLI's `--json`, an
/// HTTP server) send these shapes as they are.
enum CodableContract {
    static let cases = ContractCase.suite(
        "Values encode to stable JSON", key: "codable",
        [
            ("pinnedShapes", "a cart, its report and an order encode to their pinned JSON text and decode back equal", pinnedShapes),
            ("roundTrips", "every value a service call returns round-trips through CartJSON, in currencies of 0, 2 and 3 decimals", roundTrips),
        ])

    /// The JSON text of `value`, as `CartJSON.encoder()` writes it.
    private static func json(_ value: some Encodable) throws -> String {
        String(decoding: try CartJSON.encoder().encode(value), as: UTF8.self)
    }

    /// Expects `value` to decode from its own encoding as the same value, and to encode again
    /// to the same text.
    static func expectRoundTrip<Value: Codable & Equatable>(
        _ value: Value, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let text = try json(value)
        let decoded = try CartJSON.decoder().decode(Value.self, from: Data(text.utf8))
        #expect(decoded == value, "\(Value.self): \(text)", sourceLocation: sourceLocation)
        #expect(try json(decoded) == text, "\(Value.self) encodes stably", sourceLocation: sourceLocation)
    }

    static func pinnedShapes(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.add("apple", quantity: 3, to: "alice")
        try store.service.add("pear", quantity: 2, to: "alice")
        let cart = try store.service.cart("alice")
        #expect(
            try json(cart) == """
                {"cart":"alice","currency":"USD","items":[\
                {"currency":"USD","lineTotal":"3.75","name":"Apple","quantity":3,"sku":"apple","unitPrice":"1.25"},\
                {"currency":"USD","lineTotal":"1.98","name":"Pear","quantity":2,"sku":"pear","unitPrice":"0.99"}],\
                "subtotal":"5.73","totalItems":5,"version":2}
                """)
        #expect(try CartJSON.decoder().decode(Cart.self, from: Data(try json(cart).utf8)) == cart)
        try store.service.updateProduct("pear", with: ProductUpdate(isActive: false))
        let report = try store.service.cartReport("alice")
        #expect(
            try json(report) == """
                {"cart":"alice","currency":"USD","items":[\
                {"currency":"USD","lineTotal":"3.75","name":"Apple","quantity":3,"sku":"apple","unitPrice":"1.25"},\
                {"currency":"USD","lineTotal":"1.98","name":"Pear","quantity":2,"sku":"pear","unitPrice":"0.99"}],\
                "problems":[{"code":"inactive_product","message":"'pear' is not for sale.","sku":"pear"}],\
                "subtotal":"5.73","totalItems":5,"version":2}
                """)
        try store.service.updateProduct("pear", with: ProductUpdate(isActive: true))

        store.clock.set(try #require(UTCCalendar.parse("2026-03-01T12:00:00.250Z")))
        _ = try store.service.checkout("alice", idempotencyKey: "click-1")
        let order = try store.service.order(1)
        #expect(
            try json(order) == """
                {"cart":"alice","currency":"USD","idempotencyKey":"click-1","lines":[\
                {"currency":"USD","lineTotal":"3.75","name":"Apple","quantity":3,"sku":"apple","unitPrice":"1.25"},\
                {"currency":"USD","lineTotal":"1.98","name":"Pear","quantity":2,"sku":"pear","unitPrice":"0.99"}],\
                "number":1,"placedAt":"2026-03-01T12:00:00.250Z","total":"5.73","totalItems":5}
                """)
        #expect(try CartJSON.decoder().decode(Order.self, from: Data(try json(order).utf8)) == order)
    }

    static func roundTrips(_ backend: Backend) throws {
        try roundTrips(try Store(backend), currency: .usd)
        for currency in [Currency.jpy, .kwd] {
            let store = try Store(backend, settings: StoreSettings(currency: currency, maxLineQuantity: 99, maxLinesPerCart: 100), seeded: false)
            for product in Catalog.products {
                var product = product
                product.price = Money(minorUnits: product.price.minorUnits * 7 + 3, currency: currency)
                try store.service.addProduct(product)
            }
            try roundTrips(store, currency: currency)
        }
    }

    /// Round-trips what the calls of a seeded store return: carts, products, a merge with every
    /// kind of adjustment, pages, checkouts and their replays, summaries, stats, settings.
    private static func roundTrips(_ store: Store, currency: Currency) throws {
        let s = store.service
        try s.addProduct(Product(sku: "fig", name: "Fig \u{1F353} \"ripe\" / <b>", price: Money(minorUnits: 40, currency: currency)))
        try expectRoundTrip(try s.cart("nobody"))
        try expectRoundTrip(try s.add("apple", quantity: 60, to: "customer"))
        try s.add("pear", quantity: 3, to: "customer")
        for (sku, quantity) in [("apple", 50), ("pear", 4), ("plum", 2), ("fig", 1)] {
            try s.add(sku, quantity: quantity, to: "anon")
        }
        try s.updateSettings(maxLinesPerCart: 2)
        try s.updateProduct("plum", with: ProductUpdate(isActive: false))
        let merge = try s.merge(from: "anon", into: "customer")
        #expect(merge.adjustments.count == 4, "a line cap, the stock, an inactive product and the lines cap")
        try expectRoundTrip(merge)
        try expectRoundTrip(try s.cart("customer"))
        try s.updateSettings(maxLineQuantity: 5)
        let troubled = try s.cartReport("customer")
        #expect(!troubled.problems.isEmpty)
        try expectRoundTrip(troubled)
        try s.updateSettings(maxLineQuantity: 99)
        try expectRoundTrip(try s.cartReport("customer"))
        try expectRoundTrip(try s.products(includeInactive: true))
        try expectRoundTrip(try s.listCarts())
        try expectRoundTrip(try s.carts(matching: CartQuery(limit: 1)))
        try expectRoundTrip(try s.carts(matching: CartQuery()))

        store.clock.set(try #require(UTCCalendar.parse("1969-12-31T23:59:59.999Z")))
        let first = try s.checkout("customer", idempotencyKey: "k-1")
        try expectRoundTrip(first)
        try expectRoundTrip(try s.checkout("customer", idempotencyKey: "k-1"))
        store.clock.set(try #require(UTCCalendar.parse("2038-01-19T03:14:08.001Z")))
        try s.add("fig", to: "customer")
        try expectRoundTrip(try s.checkout("customer"))
        try expectRoundTrip(try s.orders(matching: OrderQuery(limit: 1)))
        try expectRoundTrip(try s.orders(matching: OrderQuery(limit: 5)))
        for grouping in OrderStatsGrouping.allCases { try expectRoundTrip(try s.orderStats(groupedBy: grouping)) }
        try expectRoundTrip(try s.settings())
        try expectRoundTrip(try s.counts())
        try expectRoundTrip(try s.importProducts([Product(sku: "fig", name: "Fig", price: Money(minorUnits: 41, currency: currency))]))
    }
}
