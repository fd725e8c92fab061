#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The storage handed to one unit of work of an `InMemoryCartRepository`.
final class InMemoryStorage: CartStorageWriter {
    private enum Undo {
        case settings(StoreSettings)
        case product(String, Product?)
        case line(cartID: String, sku: String, InMemoryState.LineSlot?)
        case header(cartID: String, CartHeader?)
        case cart(String, InMemoryState.StoredCart?)
        case order(wasInTimeOrder: Bool)
    }

    private let state: InMemoryState
    private let recordsUndo: Bool
    private var undoLog: [Undo] = []
    private(set) var changed = false

    init(state: InMemoryState, recordsUndo: Bool) {
        self.state = state
        self.recordsUndo = recordsUndo
    }

    private func record(_ undo: Undo) {
        precondition(recordsUndo, "a read unit must not write")
        changed = true
        undoLog.append(undo)
    }

    func rollBack() {
        for undo in undoLog.reversed() {
            switch undo {
            case .settings(let settings):
                state.settings = settings
            case .product(let sku, let product):
                state.products[sku] = product
            case .line(let cartID, let sku, let slot):
                state.carts[cartID]?.lines[sku] = slot
            case .header(let cartID, let header):
                state.carts[cartID]?.header = header
            case .cart(let cartID, let cart):
                state.carts[cartID] = cart
            case .order(let wasInTimeOrder):
                state.ordersAreInTimeOrder = wasInTimeOrder
                if let order = state.orders.popLast(), let key = order.idempotencyKey {
                    state.orderNumberByKey[key] = nil
                }
            }
        }
        undoLog.removeAll()
    }

    // MARK: Reads

    func settings() throws -> StoreSettings { state.settings }

    func product(sku: String) throws -> Product? { state.products[sku] }

    func products(includeInactive: Bool) throws -> [Product] {
        state.products.values.filter { includeInactive || $0.isActive }.sorted { $0.sku < $1.sku }
    }

    func productCount() throws -> Int { state.products.count }

    func cartHeader(id: String) throws -> CartHeader? { state.carts[id]?.header }

    func cartLines(cartID: String) throws -> [StoredCartLine] {
        guard let cart = state.carts[cartID] else { return [] }
        return cart.orderedLines.compactMap { line in
            state.products[line.sku].map { StoredCartLine(quantity: line.quantity, product: $0) }
        }
    }

    func cartLineQuantity(cartID: String, sku: String) throws -> Int? {
        state.carts[cartID]?.lines[sku]?.quantity
    }

    func cartLineCount(cartID: String) throws -> Int { state.carts[cartID]?.lines.count ?? 0 }

    func carts() throws -> [CartSummary] {
        state.carts.compactMap { id, cart in
            cart.header.map { header in
                CartSummary(
                    id: id, lineCount: cart.lines.count, totalItems: cart.lines.values.reduce(0) { $0 + $1.quantity },
                    version: header.version, updatedAt: header.updatedAt)
            }
        }.sorted { $0.id < $1.id }
    }

    func cartCount() throws -> Int { state.carts.values.count { $0.header != nil } }

    func order(number: OrderNumber) throws -> Order? {
        let index = Int(number.rawValue) - 1
        return state.orders.indices.contains(index) ? state.orders[index] : nil
    }

    func order(idempotencyKey: String) throws -> Order? {
        guard let number = state.orderNumberByKey[idempotencyKey] else { return nil }
        return try order(number: OrderNumber(rawValue: number))
    }

    func lastOrderNumber() throws -> OrderNumber { OrderNumber(rawValue: Int64(state.orders.count)) }

    func orderCount() throws -> Int { state.orders.count }

    /// Lists orders by (placedAt, number), newest or oldest first, as every backend does; the
    /// cursor is the position of order `after` in that listing.
    func forEachOrder(matching query: OrderQuery, _ body: (Order) throws -> Void) throws {
        var remaining = query.limit ?? Int.max
        guard remaining > 0 else { return }
        func key(_ order: Order) -> (Int64, Int64) { (UTCCalendar.milliseconds(order.placedAt), order.number.rawValue) }
        var cursor: (Int64, Int64)?
        if let after = query.after {
            guard let order = try order(number: after) else { return }
            cursor = key(order)
        }
        let listed = state.ordersAreInTimeOrder ? state.orders : state.orders.sorted { key($0) < key($1) }
        let newestFirst = query.sort == .newestFirst
        for order in newestFirst ? AnySequence(listed.reversed()) : AnySequence(listed) {
            if let cursor, newestFirst ? key(order) >= cursor : key(order) <= cursor { continue }
            guard Self.matches(order, query) else { continue }
            try body(order)
            remaining -= 1
            if remaining == 0 { return }
        }
    }

    func orderStats(matching query: OrderQuery, groupedBy grouping: OrderStatsGrouping) throws -> [OrderStatsRow] {
        let currency = state.settings.currency
        var groups: [String: (orders: Int, items: Int, revenue: Money)] = [:]
        for order in state.orders where Self.matches(order, query) {
            let ms = UTCCalendar.milliseconds(order.placedAt)
            switch grouping {
            case .product:
                for line in order.lines {
                    var group = groups[line.sku] ?? (0, 0, .zero(currency))
                    group.orders += 1
                    group.items += line.quantity
                    group.revenue = try group.revenue.adding(line.lineTotal)
                    groups[line.sku] = group
                }
                continue
            case .total: break
            case .day, .month: break
            }
            let key: String
            switch grouping {
            case .day: key = UTCCalendar.dayKey(milliseconds: ms)
            case .month: key = UTCCalendar.monthKey(milliseconds: ms)
            default: key = "total"
            }
            var group = groups[key] ?? (0, 0, .zero(currency))
            group.orders += 1
            group.items += order.totalItems
            group.revenue = try group.revenue.adding(order.total)
            groups[key] = group
        }
        if grouping == .total, groups.isEmpty { groups["total"] = (0, 0, .zero(currency)) }
        let rows = groups.map { OrderStatsRow(key: $0.key, orders: $0.value.orders, items: $0.value.items, revenue: $0.value.revenue) }
        if grouping == .product {
            return rows.sorted { ($0.revenue.minorUnits, $1.key) > ($1.revenue.minorUnits, $0.key) }
        }
        return rows.sorted { $0.key < $1.key }
    }

    static func matches(_ order: Order, _ query: OrderQuery) -> Bool {
        if let cartID = query.cartID, order.cartID != cartID { return false }
        if let since = query.placedOnOrAfter,
            UTCCalendar.milliseconds(order.placedAt) < UTCCalendar.milliseconds(since)
        { return false }
        if let before = query.placedBefore,
            UTCCalendar.milliseconds(order.placedAt) >= UTCCalendar.milliseconds(before)
        { return false }
        if let sku = query.sku, !order.lines.contains(where: { $0.sku == sku }) { return false }
        return true
    }

    // MARK: Writes

    func lockCart(id: String) throws -> CartHeader? { try cartHeader(id: id) }

    func lockProduct(sku: String) throws -> Product? { try product(sku: sku) }

    func lockCartLines(cartID: String) throws -> [StoredCartLine] { try cartLines(cartID: cartID) }

    func saveSettings(_ settings: StoreSettings) throws {
        record(.settings(state.settings))
        state.settings = settings
    }

    func saveProduct(_ product: Product) throws {
        record(.product(product.sku, state.products[product.sku]))
        state.products[product.sku] = product
    }

    func setCartLine(cartID: String, sku: String, quantity: Int) throws {
        guard state.products[sku] != nil else { throw InMemoryStorageError.missingProduct(sku) }
        guard quantity > 0 else { throw InMemoryStorageError.nonPositiveQuantity(quantity) }
        if state.carts[cartID] == nil {
            record(.cart(cartID, nil))
            state.carts[cartID] = InMemoryState.StoredCart()
        }
        let old = state.carts[cartID]?.lines[sku]
        record(.line(cartID: cartID, sku: sku, old))
        if let old {
            state.carts[cartID]?.lines[sku] = InMemoryState.LineSlot(quantity: quantity, position: old.position)
        } else {
            state.carts[cartID]?.nextPosition += 1
            let position = state.carts[cartID]?.nextPosition ?? 0
            state.carts[cartID]?.lines[sku] = InMemoryState.LineSlot(quantity: quantity, position: position)
        }
    }

    func deleteCartLine(cartID: String, sku: String) throws {
        guard let old = state.carts[cartID]?.lines[sku] else { return }
        record(.line(cartID: cartID, sku: sku, old))
        state.carts[cartID]?.lines[sku] = nil
    }

    func deleteCartLines(cartID: String) throws {
        guard let cart = state.carts[cartID], !cart.lines.isEmpty else { return }
        record(.cart(cartID, cart))
        state.carts[cartID]?.lines = [:]
    }

    func saveCartHeader(_ header: CartHeader) throws {
        if state.carts[header.id] == nil {
            record(.cart(header.id, nil))
            state.carts[header.id] = InMemoryState.StoredCart()
        }
        record(.header(cartID: header.id, state.carts[header.id]?.header))
        state.carts[header.id]?.header = header
    }

    func deleteCarts(updatedBefore instant: Date) throws -> Int {
        let cutoff = UTCCalendar.milliseconds(instant)
        var removed = 0
        for (id, cart) in state.carts {
            guard let header = cart.header, UTCCalendar.milliseconds(header.updatedAt) < cutoff else { continue }
            record(.cart(id, cart))
            state.carts[id] = nil
            removed += 1
        }
        return removed
    }

    func insertOrder(_ order: Order) throws {
        guard order.number.rawValue == Int64(state.orders.count) + 1 else {
            throw InMemoryStorageError.orderNumberTaken(order.number)
        }
        if let key = order.idempotencyKey {
            guard state.orderNumberByKey[key] == nil else { throw InMemoryStorageError.idempotencyKeyTaken(key) }
            state.orderNumberByKey[key] = order.number.rawValue
        }
        record(.order(wasInTimeOrder: state.ordersAreInTimeOrder))
        if let last = state.orders.last, last.placedAt > order.placedAt { state.ordersAreInTimeOrder = false }
        state.orders.append(order)
    }
}

/// Storage constraints the in-memory backend enforces, as SQLite's constraints do: they catch
/// a caller that bypasses `CartService`, never a rule.
public enum InMemoryStorageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A cart line names a product that does not exist.
    case missingProduct(String)
    /// A cart line quantity of zero or less.
    case nonPositiveQuantity(Int)
    /// An order number that is not the next one.
    case orderNumberTaken(OrderNumber)
    /// An idempotency key that already placed an order.
    case idempotencyKeyTaken(String)

    public var description: String {
        switch self {
        case .missingProduct(let sku): return "In-memory storage: no product '\(sku)' for the cart line."
        case .nonPositiveQuantity(let quantity): return "In-memory storage: line quantity \(quantity) is not positive."
        case .orderNumberTaken(let number): return "In-memory storage: order number \(number) is not the next one."
        case .idempotencyKeyTaken(let key): return "In-memory storage: idempotency key '\(key)' is taken."
        }
    }
}
