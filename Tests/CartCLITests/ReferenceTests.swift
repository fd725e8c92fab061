import CartCore
import Foundation
import Testing

@testable import CartCLI

@Suite("Documentation")
struct ReferenceTests {
    /// The command reference, and the JSON shapes.
    static let document = CartSandbox.packageRoot().appendingPathComponent("docs/CLI.md")

    @Test("docs/CLI.md holds the command reference generated from the help text")
    func referenceIsCurrent() throws {
        let text = try String(contentsOf: Self.document, encoding: .utf8)
        let current = try #require(CommandReference.updating(text), "docs/CLI.md lost its reference markers")
        // CART_UPDATE_REFERENCE=1 swift test --filter ReferenceTests rewrites the block.
        if ProcessInfo.processInfo.environment["CART_UPDATE_REFERENCE"] == "1", current != text {
            try current.write(to: Self.document, atomically: true, encoding: .utf8)
            return
        }
        #expect(
            current == text,
            "The command reference in docs/CLI.md is out of date: run CART_UPDATE_REFERENCE=1 swift test --filter ReferenceTests"
        )
    }

    @Test("the --json shapes docs/CLI.md shows are the ones the tool writes")
    func documentedShapes() throws {
        let text = try String(contentsOf: Self.document, encoding: .utf8)
        let apple = Money(minorUnits: 129, currency: .usd)
        let cart = try Cart(
            id: "default", version: 3, lines: [CartLine(sku: "apple", name: "Apple", quantity: 2, unitPrice: apple)],
            currency: .usd)
        let order = Order(
            number: 7, cartID: "default", placedAt: try #require(UTCCalendar.parse("2026-11-29T12:00:00Z")),
            currency: .usd, totalItems: 2, total: Money(minorUnits: 258, currency: .usd), idempotencyKey: nil,
            lines: [OrderLine(sku: "apple", name: "Apple", unitPrice: apple, quantity: 2, lineTotal: cart.subtotal)])
        let product = Product(sku: "apple", name: "Apple", price: apple, stock: 12)
        let kiwi = CartProblem.insufficientStock(sku: "kiwi", quantity: 3, available: 1)
        for value in [
            CartReport(cart: cart, problems: []), kiwi, CheckoutResult(order: order, replayed: false), order,
            OrderPage(orders: [order], next: 7),
            ProductPage(products: [product], next: nil),
        ] as [any Encodable] {
            let shape = try OutputTests.json(value)
            #expect(text.contains("`" + shape + "`"), "the document does not show \(shape)")
        }
    }
}
