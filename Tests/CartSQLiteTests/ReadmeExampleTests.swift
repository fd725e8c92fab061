import CartCore
import CartSQLite
import CartTestSupport
import Foundation
import Testing

/// The README's library example, kept compiling and true.
@Suite("README example")
struct ReadmeExampleTests {
    @Test("the README's library example runs as shown")
    func readmeExample() async throws {
        let directory = try TemporaryDirectory()
        let service = CartService(repository: try SQLiteCartRepository(path: directory.path("shop.sqlite3")))
        try service.importProducts([ProductImport(sku: "apple", name: "Apple", price: try Money(parsing: "1.29", currency: .usd))])
        try service.add("apple", quantity: 2, to: "alice")
        let cart = try service.cart("alice")
        #expect(cart.totalItems == 2)
        let result = try service.checkout("alice", idempotencyKey: "click-7f3e")
        #expect(result.order.number == 1)
        #expect(result.order.total.formatted == "$2.58")
        #expect(!result.replayed)
        let json = try CartJSON.encoder().encode(cart)
        #expect(String(decoding: json, as: UTF8.self).hasPrefix(#"{"cart":"alice","#))

        let carts = service.async
        let update = try await carts.add("apple", to: "bob")
        #expect(update.version == 1)

        // Run again on the same file, the example keeps what was set since, and replays its order.
        try service.updateProduct("apple", with: ProductUpdate(stock: .tracked(10), isActive: true))
        try service.importProducts([ProductImport(sku: "apple", name: "Apple", price: try Money(parsing: "1.29", currency: .usd))])
        #expect(try service.product("apple").stock == 10)
        try service.add("apple", quantity: 2, to: "alice")
        let again = try service.checkout("alice", idempotencyKey: "click-7f3e")
        #expect(again.replayed && again.order.number == 1)
        #expect(try service.cart("alice").totalItems == 2)
    }

    @Test("the README's error-category example catches a refusal by its category")
    func categoryExample() throws {
        let directory = try TemporaryDirectory()
        let service = CartService(repository: try SQLiteCartRepository(path: directory.path("shop.sqlite3")))
        try service.addProduct(Product(sku: "apple", name: "Apple", price: Money(minorUnits: 129, currency: .usd)))
        var caught: String?
        do { try service.add("apple", quantity: 500, to: "alice") } catch let error as any CategorizedError
            where error.category == .refused
        {
            caught = "\(error)"
        }
        #expect(caught != nil)
    }
}
