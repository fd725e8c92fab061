import CartCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Wraps a backend and makes the `failOnWrite`-th storage write of a unit throw, as a disk
/// error or a lost connection would, so tests can show that a unit failing midway leaves
/// nothing behind on every backend.
struct FaultInjectingRepository: CartRepository {
    struct InjectedFault: Error, Equatable {}

    let base: any CartRepository
    /// Which write of each unit fails, counting from 1.
    let failOnWrite: Int

    func write<Result>(_ body: (any CartStorageWriter) throws -> Result) throws -> Result {
        try base.write { storage in try body(FaultyWriter(base: storage, failOnWrite: failOnWrite)) }
    }

    func read<Result>(_ body: (any CartStorageReader) throws -> Result) throws -> Result {
        try base.read(body)
    }

    func changeToken() throws -> Int64 { try base.changeToken() }
}

/// Forwards every storage call, counting writes and failing the chosen one.
private final class FaultyWriter: CartStorageWriter {
    let base: any CartStorageWriter
    let failOnWrite: Int
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

    func settings() throws -> StoreSettings { try base.settings() }
    func product(sku: String) throws -> Product? { try base.product(sku: sku) }
    func products(includeInactive: Bool) throws -> [Product] { try base.products(includeInactive: includeInactive) }
    func productCount() throws -> Int { try base.productCount() }
    func cartHeader(id: String) throws -> CartHeader? { try base.cartHeader(id: id) }
    func cartLines(cartID: String) throws -> [StoredCartLine] { try base.cartLines(cartID: cartID) }
    func cartLineQuantity(cartID: String, sku: String) throws -> Int? {
        try base.cartLineQuantity(cartID: cartID, sku: sku)
    }
    func cartLineCount(cartID: String) throws -> Int { try base.cartLineCount(cartID: cartID) }
    func carts() throws -> [CartSummary] { try base.carts() }
    func cartCount() throws -> Int { try base.cartCount() }
    func order(number: OrderNumber) throws -> Order? { try base.order(number: number) }
    func order(idempotencyKey: String) throws -> Order? { try base.order(idempotencyKey: idempotencyKey) }
    func lastOrderNumber() throws -> OrderNumber { try base.lastOrderNumber() }
    func forEachOrder(matching query: OrderQuery, _ body: (Order) throws -> Void) throws {
        try base.forEachOrder(matching: query, body)
    }
    func orderStats(matching query: OrderQuery, groupedBy grouping: OrderStatsGrouping) throws -> [OrderStatsRow] {
        try base.orderStats(matching: query, groupedBy: grouping)
    }
    func orderCount() throws -> Int { try base.orderCount() }
    func lockCart(id: String) throws -> CartHeader? { try base.lockCart(id: id) }
    func lockProduct(sku: String) throws -> Product? { try base.lockProduct(sku: sku) }
    func lockCartLines(cartID: String) throws -> [StoredCartLine] { try base.lockCartLines(cartID: cartID) }
    func lockCartLine(cartID: String, sku: String) throws -> CartLineContext {
        try base.lockCartLine(cartID: cartID, sku: sku)
    }

    func saveSettings(_ settings: StoreSettings) throws { try write { try base.saveSettings(settings) } }
    func saveProduct(_ product: Product) throws { try write { try base.saveProduct(product) } }
    func saveStock(sku: String, stock: Int?) throws { try write { try base.saveStock(sku: sku, stock: stock) } }
    func upsertProduct(_ product: Product) throws -> ProductChange { try write { try base.upsertProduct(product) } }
    /// Counts each product as one write, so the fault can strike after any number of them; the
    /// products before it go through the backend's own `upsertProducts(_:)`, batches and all.
    func upsertProducts(_ products: [Product]) throws -> ProductUpsertCounts {
        let storedBeforeFault = failOnWrite - writes - 1
        guard (0..<products.count).contains(storedBeforeFault) else {
            writes += products.count
            return try base.upsertProducts(products)
        }
        _ = try base.upsertProducts(Array(products.prefix(storedBeforeFault)))
        writes += storedBeforeFault + 1
        throw FaultInjectingRepository.InjectedFault()
    }
    func setCartLine(cartID: String, sku: String, quantity: Int) throws {
        try write { try base.setCartLine(cartID: cartID, sku: sku, quantity: quantity) }
    }
    func deleteCartLine(cartID: String, sku: String) throws {
        try write { try base.deleteCartLine(cartID: cartID, sku: sku) }
    }
    func deleteCartLines(cartID: String) throws -> Int { try write { try base.deleteCartLines(cartID: cartID) } }
    func saveCartHeader(_ header: CartHeader) throws { try write { try base.saveCartHeader(header) } }
    func deleteCarts(updatedBefore instant: Date) throws -> Int {
        try write { try base.deleteCarts(updatedBefore: instant) }
    }
    func insertOrder(_ order: Order) throws { try write { try base.insertOrder(order) } }
}
