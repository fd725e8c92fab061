import CartCore
import Foundation
@testable import CartHTTP
import Testing

@Suite("The cart JSON written directly is the encoder's, byte for byte")
struct CartReportJSONTests {
    /// Every control character, quotes, backslashes, slashes and non-ASCII text.
    static let awkward = String((0..<0x20).compactMap(Unicode.Scalar.init).map(Character.init)) + "\u{7F}\"\\/é\u{2028}😀\u{FEFF}"

    @Test("empty, plain and awkward carts, in several currencies, with and without problems")
    func matchesEncoder() throws {
        let carts: [CartReport] = [
            CartReport(cart: try Cart(id: "empty", version: 0, lines: [], currency: .usd), problems: []),
            CartReport(
                cart: try Cart(
                    id: "shop_1", version: 12,
                    lines: [
                        try CartLine(sku: "apple", name: "Apple", quantity: 3, unitPrice: Money(minorUnits: 50, currency: .usd)),
                        try CartLine(sku: "a/b", name: Self.awkward, quantity: 1, unitPrice: Money(minorUnits: 0, currency: .usd)),
                    ], currency: .usd),
                problems: [
                    CartProblem(sku: "apple", code: .insufficientStock, message: "Only 1 of 'apple' in stock."),
                    CartProblem(sku: "a/b", code: .inactiveProduct, message: Self.awkward),
                    CartProblem(sku: nil, code: .lineCountCap, message: "More lines than a cart may hold."),
                    .damagedLine(sku: "b", quantity: -5),
                ]),
            CartReport(
                cart: try Cart(
                    id: Self.awkward, version: Int.max,
                    lines: [try CartLine(sku: "yen", name: "円", quantity: 1_000_000, unitPrice: Money(minorUnits: 100_000_000, currency: .jpy))],
                    currency: .jpy),
                problems: [CartProblem(sku: "yen", code: .lineQuantityCap, message: "Over the cap of 99.")]),
            CartReport(
                cart: try Cart(
                    id: "kwd", version: 1,
                    lines: [try CartLine(sku: "k", name: "K", quantity: 2, unitPrice: Money(minorUnits: 1, currency: .kwd))],
                    currency: .kwd),
                problems: []),
        ]
        for view in carts {
            let encoded = try CartJSON.encoder().encode(view)
            #expect(String(decoding: view.json, as: UTF8.self) == String(decoding: encoded, as: UTF8.self))
        }
    }

    @Test("amounts are written as Money.decimalString writes them, in every exponent")
    func amounts() throws {
        let values: [Int64] = [0, 1, 5, 9, 10, 99, 100, 101, 1299, 100_000_000, -1, -50, Int64.max, Int64.min]
        for exponent in 0...4 {
            let currency = try Currency(code: "XTS", minorUnitExponent: exponent)
            for value in values {
                let money = Money(minorUnits: value, currency: currency)
                var writer = JSONWriter(capacity: 32)
                writer.amount(money)
                #expect(String(decoding: writer.bytes, as: UTF8.self) == "\"\(money.decimalString)\"", "\(value) e\(exponent)")
            }
        }
    }
}
