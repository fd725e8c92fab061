import CartCore
import CartTestSupport
import CartSQLite
import Foundation
import Testing

/// Every unit reads the settings the file holds when it starts: a change by another
/// connection, by this one, and one rolled back each show in the next unit.
@Suite("Settings seen by the next unit")
struct SettingsFreshnessTests {
    @Test("a cap lowered through another connection applies to this connection's next add")
    func anotherConnectionsChangeIsSeen() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("cart.sqlite3")
        let first = CartService(repository: try SQLiteCartRepository(path: path), clock: fixedClock)
        try first.seedCatalog(count: 1)
        try first.add("sku-0", quantity: 5, to: "alice")
        let second = CartService(repository: try SQLiteCartRepository(path: path), clock: fixedClock)
        try second.updateSettings(maxLineQuantity: 3)

        #expect(throws: CartError.lineQuantityCapExceeded(sku: "sku-0", requested: 4, cap: 3)) {
            try first.add("sku-0", quantity: 4, to: "bob")
        }
        #expect(try first.settings().maxLineQuantity == 3)
    }

    @Test("settings this connection changed apply to its next unit")
    func ownChangeIsSeen() throws {
        let service = CartService(repository: try SQLiteCartRepository.inMemory(), clock: fixedClock)
        try service.seedCatalog(count: 1)
        try service.updateSettings(maxLineQuantity: 2)
        #expect(throws: CartError.lineQuantityCapExceeded(sku: "sku-0", requested: 3, cap: 2)) {
            try service.add("sku-0", quantity: 3, to: "alice")
        }
        try service.add("sku-0", quantity: 2, to: "alice")
        #expect(try service.cart("alice").quantity(of: "sku-0") == 2)
    }

    @Test("settings saved by a unit that failed are forgotten")
    func rolledBackChangeIsForgotten() throws {
        struct Abort: Error {}
        let repository = try SQLiteCartRepository.inMemory()
        #expect(throws: Abort.self) {
            try repository.write { storage in
                var settings = try storage.settings()
                settings.maxLineQuantity = 7
                try storage.saveSettings(settings)
                throw Abort()
            }
        }
        #expect(try CartService(repository: repository).settings().maxLineQuantity == StoreSettings.defaults.maxLineQuantity)
    }
}
