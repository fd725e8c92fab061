import CartCore
import Foundation
import Testing

/// JSON from outside (an HTTP body, a file another program wrote) decodes into a value that
/// keeps its type's rules, or throws `DecodingError`; it never traps.
@Suite("Decoding hostile JSON")
struct HostileJSONTests {
    /// A cart of 3 apples at 1.25, as `CartJSON` writes it.
    private static let cart = #"""
        {"cart":"alice","currency":"USD","items":[{"currency":"USD","lineTotal":"3.75","name":"Apple","quantity":3,"sku":"apple","unitPrice":"1.25"}],"subtotal":"3.75","totalItems":3,"version":2}
        """#

    /// An order of those apples.
    private static let order = #"""
        {"cart":"alice","currency":"USD","lines":[{"currency":"USD","lineTotal":"3.75","name":"Apple","quantity":3,"sku":"apple","unitPrice":"1.25"}],"number":1,"placedAt":"2026-03-01T12:00:00Z","total":"3.75","totalItems":3}
        """#

    private static let product = #"{"active":true,"currency":"USD","name":"Apple","price":"1.25","sku":"apple","stock":null}"#

    /// `text` with `original` replaced by `replacement`, which must occur.
    private static func replacing(_ original: String, with replacement: String, in text: String) -> String {
        #expect(text.contains(original), "the fixture holds \(original)")
        return text.replacingOccurrences(of: original, with: replacement)
    }

    private static func decode<Value: Decodable>(_ type: Value.Type, _ text: String) throws -> Value {
        try CartJSON.decoder().decode(type, from: Data(text.utf8))
    }

    @Test("the fixtures decode")
    func fixturesDecode() throws {
        #expect(try Self.decode(Cart.self, Self.cart).subtotal == Money(minorUnits: 375, currency: .usd))
        #expect(try Self.decode(Order.self, Self.order).total == Money(minorUnits: 375, currency: .usd))
        #expect(try Self.decode(Product.self, Self.product).stock == nil)
    }

    /// Edits of the cart fixture that break one rule each.
    static let hostileCarts: [(String, String)] = [
        (#""totalItems":3"#, #""totalItems":4"#),
        (#""subtotal":"3.75""#, #""subtotal":"3.76""#),
        (#""lineTotal":"3.75""#, #""lineTotal":"3.70""#),
        (#""currency":"USD","items""#, #""currency":"XYZ","items""#),
        (#"[{"currency":"USD""#, #"[{"currency":"EUR""#),
        (#""quantity":3"#, #""quantity":0"#),
        (#""quantity":3"#, #""quantity":9223372036854775807"#),
        (#""quantity":3"#, #""quantity":1e30"#),
        (#""quantity":3"#, #""quantity":3.5"#),
        (#""quantity":3"#, #""quantity":"3""#),
        (#""unitPrice":"1.25""#, #""unitPrice":"92233720368547758.08""#),
        (#""unitPrice":"1.25""#, #""unitPrice":1.25"#),
        (#""unitPrice":"1.25""#, #""unitPrice":"-1.25""#),
        (#""unitPrice":"1.25""#, #""unitPrice":"1.255""#),
        (#""version":2"#, #""version":-1"#),
        (#""version":2"#, #""version":true"#),
        (#""cart":"alice","#, ""),
        (#""items":[{"#, #""items":[null,{"#),
    ]

    @Test("a cart with wrong totals, an unknown currency, huge numbers or wrong types is refused", arguments: hostileCarts)
    func hostileCart(_ original: String, _ replacement: String) {
        let text = Self.replacing(original, with: replacement, in: Self.cart)
        #expect(throws: DecodingError.self, "\(replacement)") { try Self.decode(Cart.self, text) }
    }

    /// Edits of the order fixture that break one rule each.
    static let hostileOrders: [(String, String)] = [
        (#""totalItems":3"#, #""totalItems":2"#),
        (#""total":"3.75""#, #""total":"1.00""#),
        (#""lineTotal":"3.75""#, #""lineTotal":"3.76""#),
        (#""quantity":3"#, #""quantity":-3"#),
        (#""currency":"USD","lines""#, #""currency":"usd!","lines""#),
        (#""placedAt":"2026-03-01T12:00:00Z""#, #""placedAt":"yesterday""#),
        (#""placedAt":"2026-03-01T12:00:00Z""#, #""placedAt":1772366400"#),
        (#""number":1"#, #""number":99999999999999999999"#),
        (#""number":1"#, #""number":"1""#),
        (#""lines":[{"#, #""lines":{"#),
    ]

    @Test("an order with wrong totals, a bad instant, huge numbers or wrong types is refused", arguments: hostileOrders)
    func hostileOrder(_ original: String, _ replacement: String) {
        let text = Self.replacing(original, with: replacement, in: Self.order)
        #expect(throws: DecodingError.self, "\(replacement)") { try Self.decode(Order.self, text) }
    }

    @Test("a line of no units is refused, also when every total matches")
    func zeroUnits() {
        let line = #"{"currency":"USD","lineTotal":"0.00","name":"Free","quantity":0,"sku":"free","unitPrice":"0.00"}"#
        let cart = #"{"cart":"a","currency":"USD","items":[\#(line)],"subtotal":"0.00","totalItems":0,"version":1}"#
        let order = #"{"cart":"a","currency":"USD","lines":[\#(line)],"number":1,"placedAt":"2026-03-01T12:00:00Z","total":"0.00","totalItems":0}"#
        #expect(throws: DecodingError.self) { try Self.decode(Cart.self, cart) }
        #expect(throws: DecodingError.self) { try Self.decode(Order.self, order) }
    }

    @Test("an order whose line totals overflow 64 bits when summed is refused")
    func overflowingOrder() {
        let line = #"{"currency":"USD","lineTotal":"50000000000000000.00","name":"Gold","quantity":1,"sku":"gold","unitPrice":"50000000000000000.00"}"#
        let text = #"{"cart":"a","currency":"USD","lines":[\#(line),\#(line)],"number":1,"placedAt":"2026-03-01T12:00:00Z","total":"0.00","totalItems":2}"#
        #expect(throws: DecodingError.self) { try Self.decode(Order.self, text) }
    }

    @Test("products, merge results, pages and checkout results with wrong types or values are refused")
    func hostileOthers() {
        for text in [
            Self.replacing(#""active":true"#, with: #""active":"yes""#, in: Self.product),
            Self.replacing(#""price":"1.25""#, with: #""price":"one""#, in: Self.product),
            Self.replacing(#""stock":null"#, with: #""stock":1e100"#, in: Self.product),
        ] {
            #expect(throws: DecodingError.self, "\(text)") { try Self.decode(Product.self, text) }
        }
        let cart = Self.cart
        for text in [
            #"{"adjustments":[{"sku":"a","requested":2,"kept":1,"reason":"bogus","limit":1}],"cart":\#(cart),"mergedLines":1}"#,
            #"{"adjustments":[{"sku":"a","requested":2,"kept":1,"reason":"line_quantity_cap","limit":null}],"cart":\#(cart),"mergedLines":1}"#,
            #"{"adjustments":[{"sku":"a","requested":2,"kept":0,"reason":"inactive_product","limit":3}],"cart":\#(cart),"mergedLines":0}"#,
            #"{"adjustments":[],"cart":\#(cart),"mergedLines":"1"}"#,
        ] {
            #expect(throws: DecodingError.self, "\(text)") { try Self.decode(MergeResult.self, text) }
        }
        for text in [#"{"orders":[\#(Self.order)],"next":"x"}"#, #"{"orders":\#(Self.order),"next":null}"#] {
            #expect(throws: DecodingError.self, "\(text)") { try Self.decode(OrderPage.self, text) }
        }
        for text in [#"{"order":\#(Self.order)}"#, #"{"order":\#(Self.order),"replayed":1}"#] {
            #expect(throws: DecodingError.self, "\(text)") { try Self.decode(CheckoutResult.self, text) }
        }
    }

    @Test("text that is not JSON, cut short, or nested a million deep is refused")
    func notJSON() {
        let deep = String(repeating: "[", count: 1_000_000) + String(repeating: "]", count: 1_000_000)
        for text in ["", "cart", String(Self.cart.dropLast(5)), "\u{FEFF}\u{0}", deep, #"{"cart":"\ud800"}"#] {
            #expect(throws: DecodingError.self) { try Self.decode([Cart].self, text) }
            #expect(throws: DecodingError.self) { try Self.decode(Cart.self, text) }
        }
    }
}
