#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CartCore

/// Passes every storage call on to the backend's own storage, fast paths included, counting
/// writes and failing the chosen one.
///
/// Each basic write and each fast-path write counts as one, except `insertAbsentProducts(_:)`,
/// which counts one per product: a fault after `k` of its products passes those `k` to the
/// backend's own `insertAbsentProducts(_:)` (its batches and all) and then throws, so a fault
/// can land inside a batch.
final class FaultyWriter: StorageForwarding {
    let base: any CartStorageWriter
    private let failOnWrite: Int
    private var writes = 0

    init(base: any CartStorageWriter, failOnWrite: Int) {
        self.base = base
        self.failOnWrite = failOnWrite
    }

    private func write<T>(_ operation: () throws -> T) throws -> T {
        writes += 1
        if writes == failOnWrite { throw FaultInjectingRepository.InjectedFault() }
        return try operation()
    }

    func products(skus: [String]) throws -> [Product?] { try base.products(skus: skus) }
    func productCount() throws -> Int { try base.productCount() }
    func cartCount() throws -> Int { try base.cartCount() }
    func orderCount() throws -> Int { try base.orderCount() }
    func lineContext(cartID: String, sku: String) throws -> CartLineContext {
        try base.lineContext(cartID: cartID, sku: sku)
    }
    func cartsHolding(sku: String) throws -> [String] { try base.cartsHolding(sku: sku) }
    func linesWithoutProduct(cartID: String) throws -> [String] { try base.linesWithoutProduct(cartID: cartID) }
    func forEachOrder(matching query: OrderQuery, _ body: (Order) throws -> Void) throws {
        try base.forEachOrder(matching: query, body)
    }
    func orderStats(matching query: OrderQuery, groupedBy grouping: OrderStatsGrouping, utcOffset: UTCOffset) throws
        -> [OrderStatsRow]
    {
        try base.orderStats(matching: query, groupedBy: grouping, utcOffset: utcOffset)
    }

    func saveSettings(_ settings: StoreSettings) throws { try write { try base.saveSettings(settings) } }
    func insertProduct(_ product: Product) throws { try write { try base.insertProduct(product) } }
    func updateProduct(_ product: Product) throws { try write { try base.updateProduct(product) } }
    func deleteProduct(sku: String) throws { try write { try base.deleteProduct(sku: sku) } }
    func insertCartLine(cartID: String, sku: String, quantity: Int, position: Int) throws {
        try write { try base.insertCartLine(cartID: cartID, sku: sku, quantity: quantity, position: position) }
    }
    func updateCartLine(cartID: String, sku: String, quantity: Int) throws {
        try write { try base.updateCartLine(cartID: cartID, sku: sku, quantity: quantity) }
    }
    func deleteCartLine(cartID: String, sku: String) throws {
        try write { try base.deleteCartLine(cartID: cartID, sku: sku) }
    }
    func deleteCartLines(cartID: String) throws -> Int { try write { try base.deleteCartLines(cartID: cartID) } }
    func saveCartHeader(_ header: CartHeader, previousVersion: Int?) throws {
        try write { try base.saveCartHeader(header, previousVersion: previousVersion) }
    }
    func deleteCart(id: String) throws { try write { try base.deleteCart(id: id) } }
    func insertOrder(_ order: Order) throws { try write { try base.insertOrder(order) } }
    func insertStoreSecret(_ secret: StoreSecret) throws { try write { try base.insertStoreSecret(secret) } }

    func insertAbsentProducts(_ products: [Product]) throws -> [Bool] {
        let storedBeforeFault = failOnWrite - writes - 1
        guard (0..<products.count).contains(storedBeforeFault) else {
            writes += products.count
            return try base.insertAbsentProducts(products)
        }
        _ = try base.insertAbsentProducts(Array(products.prefix(storedBeforeFault)))
        writes += storedBeforeFault + 1
        throw FaultInjectingRepository.InjectedFault()
    }
    func insertOrders(_ orders: [Order]) throws { try write { try base.insertOrders(orders) } }
    func updateProductStock(_ product: Product) throws { try write { try base.updateProductStock(product) } }
    func deleteCartLines(cartID: String, including skus: [String]) throws -> Int {
        try write { try base.deleteCartLines(cartID: cartID, including: skus) }
    }
    func deleteCarts(updatedBefore instant: Date) throws -> Int {
        try write { try base.deleteCarts(updatedBefore: instant) }
    }
}
