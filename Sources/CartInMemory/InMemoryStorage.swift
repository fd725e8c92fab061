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
        case cart(String, InMemoryState.Cart?)
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
        for case .line(let cart, _, .none) in undoLog
        where state.carts[cart].map({ $0.header == nil && !$0.lines.isEmpty }) == true {
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
            case .header(let cart, let header): state.carts[cart, default: InMemoryState.Cart()].header = header
            case .line(let cart, let sku, let line): state.carts[cart, default: InMemoryState.Cart()].lines[sku] = line
            case .cart(let id, let cart): state.carts[id] = cart
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

    func cartHeader(id: String) throws -> CartHeader? { state.carts[id]?.header }

    func cartLines(cartID: String) throws -> [StoredCartLine] {
        guard let lines = state.carts[cartID]?.lines else { return [] }
        return lines.sorted { ($0.value.position, $0.key) < ($1.value.position, $1.key) }.compactMap { sku, line in
            state.products[sku].map { StoredCartLine(quantity: line.quantity, product: $0) }
        }
    }

    func carts() throws -> [CartSummary] {
        state.carts.values.compactMap { cart in
            cart.header.map { header in
                CartSummary(
                    id: header.id, lineCount: cart.lines.count,
                    totalItems: cart.lines.values.reduce(0) { $0 + $1.quantity }, version: header.version,
                    updatedAt: header.updatedAt)
            }
        }.sorted { $0.id < $1.id }
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
        let cart = state.carts[cartID]
        return CartLineContext(
            cartVersion: cart?.header?.version, lineCount: cart?.header?.lineCount ?? 0,
            nextLinePosition: cart?.header?.nextLinePosition ?? 1, terms: state.products[sku]?.terms,
            quantity: cart?.lines[sku]?.quantity)
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
        guard state.products.index(forKey: sku) != nil else { throw InMemoryStorageError.product(sku, exists: false) }
        guard quantity > 0 else { throw InMemoryStorageError.nonPositiveQuantity(quantity) }
        try changeLine(cartID, sku) { line in
            guard line == nil else { throw InMemoryStorageError.line(cart: cartID, sku: sku, exists: true) }
            line = InMemoryState.Line(quantity: quantity, position: position)
        }
    }

    func updateCartLine(cartID: String, sku: String, quantity: Int) throws {
        guard quantity > 0 else { throw InMemoryStorageError.nonPositiveQuantity(quantity) }
        try changeLine(cartID, sku) { line in
            guard line != nil else { throw InMemoryStorageError.line(cart: cartID, sku: sku, exists: false) }
            line?.quantity = quantity
        }
    }

    func deleteCartLine(cartID: String, sku: String) throws {
        try changeLine(cartID, sku) { line in
            guard line != nil else { throw InMemoryStorageError.line(cart: cartID, sku: sku, exists: false) }
            line = nil
        }
    }

    /// Changes one line in place, recording what it was.
    private func changeLine(
        _ cartID: String, _ sku: String, _ change: (inout InMemoryState.Line?) throws -> Void
    ) throws {
        try modifying(&state.carts[cartID, default: InMemoryState.Cart()].lines[sku]) { line in
            let old = line
            try change(&line)
            undoLog.append(.line(cart: cartID, sku: sku, old))
        }
    }

    func deleteCartLines(cartID: String) throws -> Int {
        guard let cart = state.carts[cartID], !cart.lines.isEmpty else { return 0 }
        undoLog.append(.cart(cartID, cart))
        state.carts[cartID]?.lines = [:]
        return cart.lines.count
    }

    func saveCartHeader(_ header: CartHeader, previousVersion: Int?) throws {
        try modifying(&state.carts[header.id, default: InMemoryState.Cart()].header) { stored in
            guard stored?.version == previousVersion else {
                throw InMemoryStorageError.header(cart: header.id, stored: stored?.version, expected: previousVersion)
            }
            undoLog.append(.header(header.id, stored))
            stored = header
        }
    }

    func deleteCart(id: String) throws {
        guard let cart = state.carts[id], cart.header != nil else {
            throw InMemoryStorageError.header(cart: id, stored: nil, expected: nil)
        }
        undoLog.append(.cart(id, cart))
        state.carts[id] = nil
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

/// Runs `change` on `value` in place: one access to a stored property or a dictionary entry
/// for a read and a write.
private func modifying<Value>(_ value: inout Value, _ change: (inout Value) throws -> Void) rethrows {
    try change(&value)
}
