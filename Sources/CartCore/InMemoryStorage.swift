#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The storage handed to the units of work of an `InMemoryCartRepository`: one object for
/// writes and one for reads, reused by every unit.
final class InMemoryStorage: CartStorageWriter {
    private enum Undo {
        case settings(StoreSettings)
        /// The product stored before at the SKU's ordinal; `nil` when the unit created it.
        case product(String, ordinal: Int, Product?)
        case line(InMemoryState.CartSlot, ordinal: Int, InMemoryState.LineSlot?)
        case lines(InMemoryState.CartSlot, InMemoryState.LineTable)
        case header(InMemoryState.CartSlot, InMemoryState.HeaderSlot?)
        case cart(String, InMemoryState.CartSlot?)
        case order(wasInTimeOrder: Bool)
    }

    private let state: InMemoryState
    private let recordsUndo: Bool
    /// Kept between units so its buffer is reused.
    @exclusivity(unchecked) private var undoLog: [Undo] = []
    /// The cart the unit touched last and the SKU and ordinal of the product it looked up
    /// last, so that the reads and writes of one line hash the cart ID and SKU once each
    /// (hashing was a third of an in-memory add).
    @exclusivity(unchecked) private var recentCart: (id: String, slot: InMemoryState.CartSlot)?
    @exclusivity(unchecked) private var recentProduct: (sku: String, ordinal: Int)?

    init(state: InMemoryState, recordsUndo: Bool) {
        self.state = state
        self.recordsUndo = recordsUndo
    }

    /// Whether the unit has changed anything.
    var changed: Bool { !undoLog.isEmpty }

    /// Starts a unit of work.
    func begin() {
        recentCart = nil
        recentProduct = nil
    }

    /// Ends a unit of work that succeeded: its changes stay.
    func commit() {
        // Popped one by one: `removeAll(keepingCapacity:)` goes through the generic
        // `replaceSubrange`, which cost more than the rest of the commit (callgrind).
        while undoLog.popLast() != nil {}
    }

    private func record(_ undo: Undo) {
        precondition(recordsUndo, "a read unit must not write")
        undoLog.append(undo)
    }

    /// Undoes every change of the unit, newest first.
    func rollBack() {
        recentCart = nil
        recentProduct = nil
        for undo in undoLog.reversed() {
            switch undo {
            case .settings(let settings):
                state.settings = settings
            case .product(let sku, let ordinal, let product):
                state.catalog[ordinal] = product
                if product == nil { state.ordinals[sku] = nil }
            case .line(let cart, let ordinal, let slot):
                cart.lines[ordinal] = slot
            case .lines(let cart, let lines):
                cart.lines = lines
            case .header(let cart, let header):
                cart.header = header
            case .cart(let cartID, let cart):
                state.carts[cartID] = cart
            case .order(let wasInTimeOrder):
                state.ordersAreInTimeOrder = wasInTimeOrder
                if let order = state.orders.popLast(), let key = order.idempotencyKey {
                    state.orderNumberByKey[key] = nil
                }
            }
        }
        undoLog.removeAll(keepingCapacity: true)
    }

    /// The cart's slot, created (and recorded for undo) if the cart has none.
    private func slot(for cartID: String) -> InMemoryState.CartSlot {
        if let cart = existingSlot(for: cartID) { return cart }
        let cart = InMemoryState.CartSlot()
        record(.cart(cartID, nil))
        state.carts[cartID] = cart
        recentCart = (cartID, cart)
        return cart
    }

    /// The cart's slot, if it has one.
    private func existingSlot(for cartID: String) -> InMemoryState.CartSlot? {
        if let recentCart, recentCart.id == cartID { return recentCart.slot }
        let cart = state.carts[cartID]
        if let cart { recentCart = (cartID, cart) }
        return cart
    }

    // MARK: Reads

    func settings() throws -> StoreSettings { state.settings }

    func product(sku: String) throws -> Product? { state.ordinals[sku].flatMap { state.catalog[$0] } }

    func products(includeInactive: Bool) throws -> [Product] {
        state.catalog.compactMap { $0 }.filter { includeInactive || $0.isActive }.sorted { $0.sku < $1.sku }
    }

    func productCount() throws -> Int { state.ordinals.count }

    func cartHeader(id: String) throws -> CartHeader? {
        state.carts[id]?.header.map { CartHeader(id: id, version: $0.version, updatedAt: $0.updatedAt) }
    }

    func cartLines(cartID: String) throws -> [StoredCartLine] {
        guard let cart = state.carts[cartID] else { return [] }
        return cart.orderedLines.compactMap { line in
            state.catalog[line.ordinal].map { StoredCartLine(quantity: line.quantity, product: $0) }
        }
    }

    func cartLineQuantity(cartID: String, sku: String) throws -> Int? {
        guard let ordinal = state.ordinals[sku] else { return nil }
        return state.carts[cartID]?.lines[ordinal]?.quantity
    }

    func cartLineCount(cartID: String) throws -> Int { state.carts[cartID]?.lines.count ?? 0 }

    func carts() throws -> [CartSummary] {
        state.carts.compactMap { id, cart in
            cart.header.map { header in
                CartSummary(
                    id: id, lineCount: cart.lines.count, totalItems: cart.lines.all.reduce(0) { $0 + $1.line.quantity },
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

    func lockCartLine(cartID: String, sku: String) throws -> CartLineContext {
        let cart = existingSlot(for: cartID)
        guard let ordinal = state.ordinals[sku] else {
            recentProduct = nil
            return CartLineContext(
                cartVersion: cart?.header?.version, terms: nil, quantity: nil, lineCount: cart?.lines.count ?? 0)
        }
        recentProduct = (sku, ordinal)
        let quantity = cart?.lines[ordinal]?.quantity
        return CartLineContext(
            cartVersion: cart?.header?.version, terms: state.catalog[ordinal]?.terms,
            quantity: quantity, lineCount: quantity == nil ? cart?.lines.count ?? 0 : 0)
    }

    /// The ordinal of the product with this SKU, if there is one.
    private func ordinal(sku: String) -> Int? {
        if let recentProduct, recentProduct.sku == sku { return recentProduct.ordinal }
        return state.ordinals[sku]
    }

    func saveSettings(_ settings: StoreSettings) throws {
        record(.settings(state.settings))
        state.settings = settings
    }

    func saveProduct(_ product: Product) throws {
        if let ordinal = state.ordinals[product.sku] {
            record(.product(product.sku, ordinal: ordinal, state.catalog[ordinal]))
            state.catalog[ordinal] = product
        } else {
            let ordinal = state.catalog.count
            record(.product(product.sku, ordinal: ordinal, nil))
            state.ordinals[product.sku] = ordinal
            state.catalog.append(product)
        }
    }

    func saveStock(sku: String, stock: Int?) throws {
        // As SQLite's storage: a stock write that finds no product fails, never vanishes.
        guard var product = try self.product(sku: sku) else { throw InMemoryStorageError.missingProduct(sku) }
        product.stock = stock
        try saveProduct(product)
    }

    func upsertProduct(_ product: Product) throws -> ProductChange {
        let existing = try self.product(sku: product.sku)
        if existing == product { return .unchanged }
        try saveProduct(product)
        return existing == nil ? .created : .updated
    }

    func setCartLine(cartID: String, sku: String, quantity: Int) throws {
        guard let ordinal = ordinal(sku: sku) else { throw InMemoryStorageError.missingProduct(sku) }
        guard quantity > 0 else { throw InMemoryStorageError.nonPositiveQuantity(quantity) }
        let cart = slot(for: cartID)
        let next = cart.nextPosition + 1
        // One probe for the read and the write.
        let old = cart.lines.setQuantity(quantity, ofLine: ordinal, newPosition: next)
        if old == nil { cart.nextPosition = next }
        record(.line(cart, ordinal: ordinal, old))
    }

    func deleteCartLine(cartID: String, sku: String) throws {
        guard let ordinal = ordinal(sku: sku), let cart = existingSlot(for: cartID), let old = cart.lines[ordinal]
        else { return }
        record(.line(cart, ordinal: ordinal, old))
        cart.lines[ordinal] = nil
    }

    func deleteCartLines(cartID: String) throws -> Int {
        guard let cart = state.carts[cartID], !cart.lines.isEmpty else { return 0 }
        let count = cart.lines.count
        record(.lines(cart, cart.lines))
        cart.lines = InMemoryState.LineTable()
        return count
    }

    func saveCartHeader(_ header: CartHeader) throws {
        let cart = slot(for: header.id)
        record(.header(cart, cart.header))
        cart.header = InMemoryState.HeaderSlot(version: header.version, updatedAt: header.updatedAt)
    }

    func deleteCarts(updatedBefore instant: Date) throws -> Int {
        recentCart = nil
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
