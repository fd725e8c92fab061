import CartCore
import CartInMemory
import CartPostgres
import CartSQLite
import CartTestSupport
import Foundation
import Synchronization
import Testing

/// Moving a whole store between backends with `StoreCopy`.
@Suite("Copying a store between backends")
struct StoreCopyTests {
    /// Everything a store holds as the JSON its values encode to: settings, each product,
    /// each cart summary and cart, each order.
    static func json(_ repository: any CartRepository) throws -> [String] {
        let service = CartService(repository: repository)
        let encoder = CartJSON.encoder()
        func text(_ value: some Encodable) throws -> String { String(decoding: try encoder.encode(value), as: UTF8.self) }
        var lines = [try text(service.settings())]
        lines += try service.products(includeInactive: true).map(text)
        for summary in try service.listCarts() {
            lines += [try text(summary), try text(service.cart(summary.id))]
        }
        try service.forEachOrder(matching: OrderQuery(sort: .oldestFirst)) { lines.append(try text($0)) }
        return lines
    }

    /// The headers of every cart, which JSON shows only in part (the line summary not at all).
    static func headers(_ repository: any CartRepository) throws -> [CartHeader?] {
        try repository.read { storage in try storage.carts().map { try storage.cartHeader(id: $0.id) } }
    }

    /// A store in euros with products of every kind, carts full, emptied and never checked
    /// out, lines added out of SKU order, and orders with and without keys at several instants.
    static func fill(_ repository: any CartRepository) throws {
        let clock = Mutex(Date(timeIntervalSince1970: 1_767_225_600.123))
        func advance(_ seconds: TimeInterval) { clock.withLock { $0 += seconds } }
        let service = CartService(repository: repository, clock: { clock.withLock { $0 } })
        try service.updateSettings(currency: .eur, maxLineQuantity: 50, maxLinesPerCart: 20)
        let eur = { (cents: Int64) in Money(minorUnits: cents, currency: .eur) }
        try service.importProducts([
            Product(sku: "zucchini", name: "Zucchini", price: eur(89), stock: 40),
            Product(sku: "apple", name: "Äpfel – Boskoop", price: eur(125)),
            Product(sku: "Banana", name: "Banana \"Cavendish\"", price: eur(30), stock: 7),
            Product(sku: "creme", name: "Crème fraîche", price: eur(199), stock: 0),
        ])
        try service.addProduct(Product(sku: "gone", name: "Discontinued", price: eur(1), isActive: false))
        for (index, cart) in ["carol", "alice", "bob", "dave"].enumerated() {
            advance(61)
            for sku in ["zucchini", "apple", "Banana"].shuffled(seed: index) { try service.add(sku, quantity: index + 1, to: cart) }
        }
        try service.remove("apple", from: "alice")
        advance(3600)
        _ = try service.checkout("bob", idempotencyKey: "bob-order-1")
        advance(0.5)
        _ = try service.checkout("carol")
        try service.add("apple", to: "bob")
        try service.clear("dave")
        _ = try service.storeSecret()
    }

    /// Copies `from` into `to` and expects the target to read back as the source does, and
    /// the progress reports to end at the source's counts.
    static func expectCopy(from source: any CartRepository, to target: any CartRepository, sourceLocation: SourceLocation = #_sourceLocation) throws {
        var reports: [StoreCopy.Progress] = []
        let copied = try StoreCopy.copy(from: source, to: target) { reports.append($0) }
        #expect(try json(target) == json(source), sourceLocation: sourceLocation)
        #expect(try headers(target) == headers(source), sourceLocation: sourceLocation)
        let secret = try source.read { try $0.storeSecret() }
        let copiedSecret = try target.read { try $0.storeSecret() }
        #expect(secret != nil && copiedSecret == secret, sourceLocation: sourceLocation)
        #expect(reports.last?.copied == copied, sourceLocation: sourceLocation)
        #expect(reports.last?.total == copied, sourceLocation: sourceLocation)
        #expect(try CartService(repository: target).counts() == copied, sourceLocation: sourceLocation)
    }

    @Test("SQLite to PostgreSQL to SQLite gives the same JSON for every product, cart and order", TestServer.requires())
    func sqliteToPostgresAndBack() throws {
        let directory = try TemporaryDirectory()
        let schema = try TestSchema()
        defer { try? schema.drop() }
        let first = try SQLiteCartRepository(path: directory.path("first.sqlite3"))
        try Self.fill(first)
        let postgres = try schema.repository()
        try Self.expectCopy(from: first, to: postgres)
        let second = try SQLiteCartRepository(path: directory.path("second.sqlite3"))
        try Self.expectCopy(from: postgres, to: second)
        #expect(try Self.json(second) == Self.json(first))
        // The copies go on numbering orders where the source stopped.
        let next = try CartService(repository: postgres).checkout("alice").order.number
        #expect(next == 3)
    }

    @Test("in memory to SQLite to in memory gives the same JSON")
    func inMemoryAndSQLite() throws {
        let directory = try TemporaryDirectory()
        let memory = InMemoryCartRepository()
        try Self.fill(memory)
        let file = try SQLiteCartRepository(path: directory.path("cart.sqlite3"))
        try Self.expectCopy(from: memory, to: file)
        let back = InMemoryCartRepository()
        try Self.expectCopy(from: file, to: back)
        #expect(try Self.json(back) == Self.json(memory))
    }

    @Test("orders go across in batches, a report after each, and number on where the source stopped", TestServer.requires())
    func manyOrders() throws {
        let schema = try TestSchema()
        defer { try? schema.drop() }
        let source = InMemoryCartRepository()
        let service = CartService(repository: source)
        try service.addProduct(Product(sku: "apple", name: "Apple", price: Money(minorUnits: 125, currency: .usd)))
        for index in 0..<2_345 {
            try service.add("apple", quantity: index % 3 + 1, to: "cart-\(index % 10)")
            _ = try service.checkout("cart-\(index % 10)", idempotencyKey: index % 2 == 0 ? "key-\(index)" : nil)
        }
        let target = try schema.repository()
        var reported: [Int] = []
        try StoreCopy.copy(from: source, to: target) { reported.append($0.copied.orders) }
        #expect(reported.filter { $0 > 0 } == [1_000, 2_000, 2_345, 2_345])
        #expect(try Self.json(target) == Self.json(source))
        try CartService(repository: target).add("apple", to: "alice")
        #expect(try CartService(repository: target).checkout("alice").order.number == OrderNumber(rawValue: 2_346))
    }

    @Test("a target that holds anything is refused, named, and left as it was")
    func nonEmptyTarget() throws {
        let source = InMemoryCartRepository()
        try Self.fill(source)
        let target = InMemoryCartRepository()
        let service = CartService(repository: target)
        try service.addProduct(Product(sku: "kept", name: "Kept", price: Money(minorUnits: 1, currency: .usd)))
        let before = try Self.json(target)
        let error = #expect(throws: StoreCopyError.targetNotEmpty(StoreCounts(products: 1, carts: 0, orders: 0))) {
            try StoreCopy.copy(from: source, to: target)
        }
        #expect(error.map(ErrorCategory.init(of:)) == .conflict)
        #expect(error?.description.contains("1 products, 0 carts and 0 orders") == true)
        #expect(try Self.json(target) == before)
    }

    @Test("a copy into PostgreSQL that fails midway leaves the target empty", TestServer.requires())
    func failedCopyLeavesNothing() throws {
        let schema = try TestSchema()
        defer { try? schema.drop() }
        let source = InMemoryCartRepository()
        try Self.fill(source)
        let target = try schema.repository()
        struct Interrupted: Error {}
        #expect(throws: Interrupted.self) {
            try StoreCopy.copy(from: source, to: target) { progress in
                if progress.copied.products > 0 { throw Interrupted() }
            }
        }
        #expect(try CartService(repository: target).counts() == StoreCounts(products: 0, carts: 0, orders: 0))
    }
}

extension Array {
    /// The elements in an order fixed by `seed`.
    func shuffled(seed: Int) -> [Element] {
        var random = SplitMix64(seed: UInt64(seed + 1))
        return shuffled(using: &random)
    }
}
