import CartContract
import CartCore
import CartInMemory
import Foundation
import Testing

/// What an app that depends on the cart package does with it.
@Suite("Adopting the cart library")
struct AdopterTests {
    @Test("a Cart encodes with a plain JSONEncoder and decodes back")
    func encodeCart() throws {
        let apple = Product(sku: "apple", name: "Apple", price: try Money(parsing: "1.25", currency: .usd))
        let cart = try Cart(
            id: "alice", version: 1, lines: [try CartLine(sku: apple.sku, name: apple.name, quantity: 2, unitPrice: apple.price)],
            currency: .usd)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(cart), as: UTF8.self)
        #expect(text.contains(#""subtotal":"2.50""#))
        #expect(try JSONDecoder().decode(Cart.self, from: Data(text.utf8)) == cart)
    }

    @Test("a CartService over CartInMemory adds, checks out and keeps the order")
    func serviceOverInMemory() throws {
        let service = CartService(repository: InMemoryCartRepository(), clock: { Date(timeIntervalSince1970: 1_772_366_400) })
        try service.addProduct(Product(sku: "apple", name: "Apple", price: try Money(parsing: "1.25", currency: .usd)))
        try service.add("apple", quantity: 3, to: "alice")
        let result = try service.checkout("alice", idempotencyKey: "click-1")
        #expect(result.order.total.formatted == "$3.75")
        #expect(try service.order(1) == result.order)
        #expect(try service.cart("alice").isEmpty)
    }

    @Test("a backend of the adopter's own meets the contract", arguments: CartContract.cases)
    func contract(_ check: ContractCase) async throws {
        try await check.run { settings in ForwardingRepository(base: try InMemoryCartRepository(settings: settings)) }
    }
}
