#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CartCore

/// A storage that passes each basic requirement on to `base`. A conforming type that adds
/// nothing else answers every fast path with the protocols' defaults; one that implements a
/// call itself answers that call its own way.
protocol StorageForwarding: CartStorageWriter {
    /// The backend's own storage.
    var base: any CartStorageWriter { get }
}

extension StorageForwarding {
    func settings() throws -> StoreSettings { try base.settings() }
    func product(sku: String) throws -> Product? { try base.product(sku: sku) }
    func products() throws -> [Product] { try base.products() }
    func cartHeader(id: String) throws -> CartHeader? { try base.cartHeader(id: id) }
    func cartLines(cartID: String) throws -> [StoredCartLine] { try base.cartLines(cartID: cartID) }
    func carts() throws -> [CartSummary] { try base.carts() }
    func order(number: OrderNumber) throws -> Order? { try base.order(number: number) }
    func order(idempotencyKey: String) throws -> Order? { try base.order(idempotencyKey: idempotencyKey) }
    func lastOrderNumber() throws -> OrderNumber { try base.lastOrderNumber() }
    func forEachOrder(_ body: (Order) throws -> Void) throws { try base.forEachOrder(body) }
    func storeSecret() throws -> StoreSecret? { try base.storeSecret() }

    func settingsForChange() throws -> StoreSettings { try base.settingsForChange() }
    var readerWithoutLocks: any CartStorageReader { base.readerWithoutLocks }
    func saveSettings(_ settings: StoreSettings) throws { try base.saveSettings(settings) }
    func insertProduct(_ product: Product) throws { try base.insertProduct(product) }
    func updateProduct(_ product: Product) throws { try base.updateProduct(product) }
    func deleteProduct(sku: String) throws { try base.deleteProduct(sku: sku) }
    func insertCartLine(cartID: String, sku: String, quantity: Int, position: Int) throws {
        try base.insertCartLine(cartID: cartID, sku: sku, quantity: quantity, position: position)
    }
    func updateCartLine(cartID: String, sku: String, quantity: Int) throws {
        try base.updateCartLine(cartID: cartID, sku: sku, quantity: quantity)
    }
    func deleteCartLine(cartID: String, sku: String) throws { try base.deleteCartLine(cartID: cartID, sku: sku) }
    func deleteCartLines(cartID: String) throws -> Int { try base.deleteCartLines(cartID: cartID) }
    func saveCartHeader(_ header: CartHeader, previousVersion: Int?) throws {
        try base.saveCartHeader(header, previousVersion: previousVersion)
    }
    func deleteCart(id: String) throws { try base.deleteCart(id: id) }
    func insertOrder(_ order: Order) throws { try base.insertOrder(order) }
    func insertStoreSecret(_ secret: StoreSecret) throws { try base.insertStoreSecret(secret) }
}
