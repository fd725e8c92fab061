import CartCore
import CartSQLite
import CartTestSupport
import Foundation
import Testing

@Suite("Copying a SQLite store that another client damaged")
struct StoreCopyDamageTests {
    @Test("a cart line whose product another client deleted stops the copy, named; removed, the copy goes through")
    func lineWithoutProduct() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("source.sqlite3")
        let source = try SQLiteCartRepository(path: path)
        let service = CartService(repository: source, clock: fixedClock)
        for sku in ["apple", "fig"] {
            try service.addProduct(Product(sku: sku, name: sku.capitalized, price: Money(minorUnits: 100, currency: .usd)))
            try service.add(sku, to: "alice")
        }
        // Another client, with foreign keys off.
        try sqlite(path, "DELETE FROM products WHERE sku = 'fig'")

        let target = try SQLiteCartRepository(path: directory.path("target.sqlite3"))
        let error = #expect(throws: StoredDataError.self) { try StoreCopy.copy(from: source, to: target) }
        #expect(error?.description.contains("the line of 'fig' in cart 'alice' names a product the store no longer holds") == true)
        #expect(try CartService(repository: target).counts() == StoreCounts(products: 0, carts: 0, orders: 0))

        try service.remove("fig", from: "alice")
        try StoreCopy.copy(from: source, to: target)
        #expect(try CartService(repository: target).cart("alice").lines.map(\.sku) == ["apple"])
        #expect(try CartService(repository: target).cartReport("alice").problems.isEmpty)
    }

    @Test("a SKU or cart ID another client stored that the service would not take stops the copy, named", arguments: [
        ("INSERT INTO products (sku, name, price, active, stock) VALUES ('bad' || char(10) || 'sku', 'X', 100, 1, NULL)",
         "the SKU of a product is 'bad\\nsku': it contains control characters"),
        ("INSERT INTO products (sku, name, price, active, stock) VALUES ('trail ', 'X', 100, 1, NULL)",
         "the SKU of a product is 'trail ': it has leading or trailing space"),
        ("INSERT INTO carts (id, version, updated_at) VALUES ('bob ', 1, 0)",
         "the ID of a cart is 'bob ': it has leading or trailing space"),
        ("UPDATE orders SET cart_id = 'alice ' WHERE number = 1",
         "the cart ID of order 1 is 'alice ': it has leading or trailing space"),
    ])
    func unusableIdentifier(damage: String, finding: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("source.sqlite3")
        let source = try SQLiteCartRepository(path: path)
        let service = CartService(repository: source, clock: fixedClock)
        try service.addProduct(Product(sku: "apple", name: "Apple", price: Money(minorUnits: 100, currency: .usd)))
        try service.add("apple", to: "alice")
        _ = try service.checkout("alice")
        try service.add("apple", to: "alice")
        try sqlite(path, damage)

        let target = try SQLiteCartRepository(path: directory.path("target.sqlite3"))
        let error = #expect(throws: StoredDataError.self) { try StoreCopy.copy(from: source, to: target) }
        #expect(error?.message == finding)
        #expect(try CartService(repository: target).counts() == StoreCounts(products: 0, carts: 0, orders: 0))
    }
}
