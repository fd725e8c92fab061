#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CartCore

/// The storage an `InMemoryCartRepository` hands to its units of work. It changes the state in
/// place and records how to undo each change, so that a unit that throws is undone, newest
/// change first, and one that succeeds copies nothing.
final class InMemoryStorage: CartStorageWriter {
    /// The value a change replaced.
    private enum Undo {
        case settings(StoreSettings)
        case product(String, Product?)
        case header(String, CartHeader?)
        case line(cart: String, sku: String, InMemoryState.Line?)
        case lines(cart: String, [String: InMemoryState.Line]?)
        case order(Order)
    }

    var state: InMemoryState
    private var undoLog: [Undo] = []

    init(settings: StoreSettings) {
        state = InMemoryState(settings: settings)
    }

    /// Whether the unit under way has changed anything.
    var hasChanges: Bool { !undoLog.isEmpty }

    /// Keeps the unit's changes, unless they leave lines in a cart that has no header.
    ///
    /// - Throws: `InMemoryStorageError.linesWithoutHeader`, as SQLite's foreign key refuses
    ///   such a commit; the caller rolls the unit back.
    func commit() throws {
        for case .line(let cart, _, .none) in undoLog where state.headers[cart] == nil && state.lines[cart]?.isEmpty == false {
            throw InMemoryStorageError.linesWithoutHeader(cart: cart)
        }
        if hasChanges { state.commits += 1 }
        undoLog.removeAll(keepingCapacity: true)
    }

    /// Undoes every change of the unit, newest first.
    func rollBack() {
        for undo in undoLog.reversed() {
            switch undo {
            case .settings(let settings): state.settings = settings
            case .product(let sku, let product): state.products[sku] = product
            case .header(let cart, let header): state.headers[cart] = header
            case .line(let cart, let sku, let line): state.lines[cart, default: [:]][sku] = line
            case .lines(let cart, let lines): state.lines[cart] = lines
            case .order(let order):
                state.orders.removeLast()
                if let key = order.idempotencyKey { state.orderNumbers[key] = nil }
            }
        }
        undoLog.removeAll(keepingCapacity: true)
    }

    // MARK: Reads

    func settings() throws -> StoreSettings { state.settings }

    func product(sku: String) throws -> Product? { state.products[sku] }

    func products() throws -> [Product] { state.products.values.sorted { $0.sku < $1.sku } }

    func cartHeader(id: String) throws -> CartHeader? { state.headers[id] }

    func cartLines(cartID: String) throws -> [StoredCartLine] {
        guard let lines = state.lines[cartID] else { return [] }
        return lines.sorted { ($0.value.position, $0.key) < ($1.value.position, $1.key) }.compactMap { sku, line in
            state.products[sku].map { StoredCartLine(quantity: line.quantity, position: line.position, product: $0) }
        }
    }

    func carts() throws -> [CartSummary] {
        state.headers.values.sorted { $0.id < $1.id }.map { header in
            let lines = state.lines[header.id] ?? [:]
            return CartSummary(
                id: header.id, lineCount: lines.count, totalItems: lines.values.reduce(0) { $0 + $1.quantity },
                version: header.version, updatedAt: header.updatedAt)
        }
    }

    func order(number: OrderNumber) throws -> Order? {
        let index = Int(clamping: number.rawValue) - 1
        return state.orders.indices.contains(index) ? state.orders[index] : nil
    }

    func order(idempotencyKey: String) throws -> Order? {
        try state.orderNumbers[idempotencyKey].flatMap { try order(number: $0) }
    }

    func lastOrderNumber() throws -> OrderNumber { OrderNumber(rawValue: Int64(state.orders.count)) }

    func forEachOrder(_ body: (Order) throws -> Void) throws {
        for order in state.orders { try body(order) }
    }

    /// Looks the cart's line up by key rather than sorting its lines.
    func lineContext(cartID: String, sku: String) throws -> CartLineContext {
        let lines = state.lines[cartID]
        let quantity = lines?[sku]?.quantity
        return CartLineContext(
            cartVersion: state.headers[cartID]?.version, terms: state.products[sku]?.terms, quantity: quantity,
            lineCount: lines?.count ?? 0, lastPosition: quantity == nil ? lines?.values.map(\.position).max() ?? 0 : 0)
    }

    // MARK: Writes

    func saveSettings(_ settings: StoreSettings) throws {
        undoLog.append(.settings(state.settings))
        state.settings = settings
    }

    func insertProduct(_ product: Product) throws {
        guard state.products[product.sku] == nil else { throw InMemoryStorageError.product(product.sku, exists: true) }
        undoLog.append(.product(product.sku, nil))
        state.products[product.sku] = product
    }

    func updateProduct(_ product: Product) throws {
        guard let old = state.products[product.sku] else { throw InMemoryStorageError.product(product.sku, exists: false) }
        undoLog.append(.product(product.sku, old))
        state.products[product.sku] = product
    }

    func insertCartLine(cartID: String, sku: String, quantity: Int, position: Int) throws {
        guard state.products[sku] != nil else { throw InMemoryStorageError.product(sku, exists: false) }
        guard quantity > 0 else { throw InMemoryStorageError.nonPositiveQuantity(quantity) }
        guard state.lines[cartID]?[sku] == nil else { throw InMemoryStorageError.line(cart: cartID, sku: sku, exists: true) }
        undoLog.append(.line(cart: cartID, sku: sku, nil))
        state.lines[cartID, default: [:]][sku] = InMemoryState.Line(quantity: quantity, position: position)
    }

    func updateCartLine(cartID: String, sku: String, quantity: Int) throws {
        guard quantity > 0 else { throw InMemoryStorageError.nonPositiveQuantity(quantity) }
        guard let old = state.lines[cartID]?[sku] else { throw InMemoryStorageError.line(cart: cartID, sku: sku, exists: false) }
        undoLog.append(.line(cart: cartID, sku: sku, old))
        state.lines[cartID]?[sku]?.quantity = quantity
    }

    func deleteCartLine(cartID: String, sku: String) throws {
        guard let old = state.lines[cartID]?[sku] else { throw InMemoryStorageError.line(cart: cartID, sku: sku, exists: false) }
        undoLog.append(.line(cart: cartID, sku: sku, old))
        state.lines[cartID]?[sku] = nil
    }

    func deleteCartLines(cartID: String) throws -> Int {
        guard let old = state.lines[cartID], !old.isEmpty else { return 0 }
        undoLog.append(.lines(cart: cartID, old))
        state.lines[cartID] = nil
        return old.count
    }

    func saveCartHeader(_ header: CartHeader, previousVersion: Int?) throws {
        let old = state.headers[header.id]
        guard old?.version == previousVersion else {
            throw InMemoryStorageError.header(cart: header.id, stored: old?.version, expected: previousVersion)
        }
        undoLog.append(.header(header.id, old))
        state.headers[header.id] = header
    }

    func deleteCart(id: String) throws {
        guard let old = state.headers[id] else { throw InMemoryStorageError.header(cart: id, stored: nil, expected: nil) }
        undoLog.append(.lines(cart: id, state.lines[id]))
        undoLog.append(.header(id, old))
        state.lines[id] = nil
        state.headers[id] = nil
    }

    func insertOrder(_ order: Order) throws {
        guard order.number.rawValue == Int64(state.orders.count) + 1 else {
            throw InMemoryStorageError.orderNumberTaken(order.number)
        }
        if let key = order.idempotencyKey {
            guard state.orderNumbers[key] == nil else { throw InMemoryStorageError.idempotencyKeyTaken(key) }
            state.orderNumbers[key] = order.number
        }
        undoLog.append(.order(order))
        state.orders.append(order)
    }
}
