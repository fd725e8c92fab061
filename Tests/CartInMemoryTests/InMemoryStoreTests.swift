import CartCore
import CartInMemory
import Testing

/// What only the in-memory store has: its location, its status and its change token.
@Suite("In-memory store")
struct InMemoryStoreTests {
    private static let yen = StoreSettings(currency: .jpy, maxLineQuantity: 5, maxLinesPerCart: 3)

    @Test("memory: opens a new, empty store each time, with the options' settings")
    func opensByLocation() throws {
        let registry = StoreRegistry([InMemoryCartRepository.backend])
        let first = CartService(repository: try registry.open("memory:", options: StoreOptions(initialSettings: Self.yen)))
        try first.addProduct(Product(sku: "tea", name: "Tea", price: Money(minorUnits: 500, currency: .jpy)))
        #expect(try first.settings() == Self.yen)
        let second = CartService(repository: try registry.open("memory:"))
        #expect(try second.products(includeInactive: true).isEmpty)
        #expect(try second.settings() == .defaults)
        #expect(throws: StoreLocationError.self) { try registry.open("memory://elsewhere") }
    }

    @Test("status reports the kind, no schema and no persistence; there is nothing to migrate or check")
    func maintenance() throws {
        let repository = InMemoryCartRepository()
        let status = try repository.status()
        #expect(status.kind == "memory")
        #expect(status.location == "memory:")
        #expect(status.schemaVersion == 0)
        #expect(status.appliedMigrations.isEmpty && status.pendingMigrations.isEmpty)
        #expect(status.details.map(\.key) == ["persistence"])
        #expect(try repository.migrate().isEmpty)
        #expect(try repository.check().isEmpty)
    }

    @Test("the change token moves once for each unit that changed something, and for nothing else")
    func changeToken() throws {
        let repository = InMemoryCartRepository()
        let service = CartService(repository: repository)
        let start = try repository.changeToken()
        try service.addProduct(Product(sku: "apple", name: "Apple", price: Money(minorUnits: 125, currency: .usd)))
        try service.add("apple", quantity: 2, to: "alice")
        #expect(try repository.changeToken() == start + 2)
        _ = try service.cart("alice")
        _ = try? service.add("pear", to: "alice")
        try service.clear("nobody")
        #expect(try repository.changeToken() == start + 2, "reads, refusals and changes of nothing leave it")
    }
}
