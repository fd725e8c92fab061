#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CartCore

/// The storage an `InMemoryCartRepository` hands to its units of work: each call is one read
/// or one change of the `InMemoryState`, which records how to undo each change, so that a unit
/// that throws is undone, newest change first, and one that succeeds copies nothing.
final class InMemoryStorage: CartStorageWriter {
    var state: InMemoryState

    init(settings: StoreSettings) {
        state = InMemoryState(settings: settings)
    }

    // MARK: Reads

    func settings() throws -> StoreSettings { state.settings }

    func product(sku: String) throws -> Product? { state.products[sku] }

    func products() throws -> [Product] { state.products.values.sorted { $0.sku < $1.sku } }

    func cartHeader(id: String) throws -> CartHeader? { state.carts[id]?.header }

    func cartLines(cartID: String) throws -> [StoredCartLine] {
        let state = state
        guard let lines = state.carts[cartID]?.lines else { return [] }
        return lines.sorted { ($0.value.position, $0.key) < ($1.value.position, $1.key) }.compactMap { sku, line in
            state.products[sku].map { StoredCartLine(quantity: line.quantity, product: $0) }
        }
    }

    func carts() throws -> [CartSummary] {
        state.carts.values.compactMap { cart in
            cart.header.map { header in
                let quantities = cart.lines.values.map(\.quantity)
                return CartSummary(
                    id: header.id, version: header.version, updatedAt: header.updatedAt, lineCount: quantities.count,
                    smallestQuantity: quantities.min(), largestQuantity: quantities.max(), sum: { quantities.reduce(0, +) })
            }
        }.sorted { $0.id < $1.id }
    }

    func order(number: OrderNumber) throws -> Order? {
        // Order numbers start at 1; a caller of the storage may ask for any other.
        guard number.rawValue >= 1 else { return nil }
        let index = Int(clamping: number.rawValue) - 1
        let orders = state.orders
        return orders.indices.contains(index) ? orders[index] : nil
    }

    func order(idempotencyKey: String) throws -> Order? {
        try state.orderNumbers[idempotencyKey].flatMap { try order(number: $0) }
    }

    func lastOrderNumber() throws -> OrderNumber { OrderNumber(rawValue: Int64(state.orders.count)) }

    func storeSecret() throws -> StoreSecret? { state.secret }

    func forEachOrder(_ body: (Order) throws -> Void) throws {
        for order in state.orders { try body(order) }
    }

    /// Looks the cart's line up by key rather than sorting its lines.
    func lineContext(cartID: String, sku: String) throws -> CartLineContext {
        let cart = state.carts[cartID]
        return CartLineContext(
            cartVersion: cart?.header?.version, lineCount: cart?.header?.lineCount ?? 0,
            nextLinePosition: cart?.header?.nextLinePosition ?? 1, terms: state.products[sku]?.terms,
            quantity: cart?.lines[sku]?.quantity, settings: state.settings)
    }

    /// Looks each cart's line up by key rather than reading every cart's lines.
    func cartsHolding(sku: String) throws -> [String] {
        state.carts.compactMap { id, cart in cart.header != nil && cart.lines[sku] != nil ? id : nil }.sorted()
    }

    // MARK: Writes

    func saveSettings(_ settings: StoreSettings) throws { state.saveSettings(settings) }

    func insertProduct(_ product: Product) throws { try state.saveProduct(product, exists: false) }

    func updateProduct(_ product: Product) throws { try state.saveProduct(product, exists: true) }

    func deleteProduct(sku: String) throws { try state.deleteProduct(sku: sku) }

    func insertCartLine(cartID: String, sku: String, quantity: Int, position: Int) throws {
        try state.insertLine(cartID: cartID, sku: sku, quantity: quantity, position: position)
    }

    func updateCartLine(cartID: String, sku: String, quantity: Int) throws {
        try state.changeLine(cartID: cartID, sku: sku, quantity: quantity)
    }

    func deleteCartLine(cartID: String, sku: String) throws {
        try state.changeLine(cartID: cartID, sku: sku, quantity: nil)
    }

    func deleteCartLines(cartID: String) throws -> Int { state.deleteLines(cartID: cartID) }

    func saveCartHeader(_ header: CartHeader, previousVersion: Int?) throws {
        try state.saveHeader(header, previousVersion: previousVersion)
    }

    func deleteCart(id: String) throws { try state.deleteCart(id: id) }

    func insertOrder(_ order: Order) throws { try state.insertOrder(order) }

    func insertStoreSecret(_ secret: StoreSecret) throws { try state.insertSecret(secret) }
}
