import CartCore
import CartTestSupport
import CartSQLite
import Foundation
import Testing

/// The README's library example, kept compiling and true.
@Suite("README example")
struct ReadmeExampleTests {
    @Test("the README's library example runs as shown")
    func readmeExample() throws {
        let directory = try TemporaryDirectory()
        let service = CartService(repository: try SQLiteCartRepository(path: directory.path("shop.sqlite3")))
        try service.addProduct(Product(sku: "apple", name: "Apple", price: try Money(parsing: "1.29", currency: .usd)))
        try service.add("apple", quantity: 2, to: "alice")
        try service.remove("apple", from: "alice")
        let cart = try service.cart("alice")
        #expect(cart.totalItems == 1)
        let result = try service.checkout("alice", idempotencyKey: "click-7f3e")
        #expect(result.order.number == 1)
        #expect(result.order.total.formatted == "$1.29")
    }
}
