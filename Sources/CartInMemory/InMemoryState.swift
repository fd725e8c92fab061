#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CartCore

/// Everything an `InMemoryCartRepository` holds, in plain collections, with the changes a unit
/// of work makes and how to undo them. `InMemoryStorage` calls one method of it per storage
/// call.
struct InMemoryState {
    /// One line of a cart.
    struct Line: Hashable {
        var quantity: Int
        var position: Int
    }

    /// One cart: its header, once saved, and its lines by SKU.
    struct Cart {
        var header: CartHeader?
        /// Room for a typical cart from the start, rather than rehashing every line at each of
        /// the first few doublings.
        var lines = [String: Line](minimumCapacity: 16)
    }

    /// The value a change replaced.
    private enum Undo {
        case settings(StoreSettings)
        case product(String, Product?)
        case header(String, CartHeader?)
        case line(cart: String, sku: String, Line?)
        case cart(String, Cart?)
        case order(Order)
        case secret
    }

    var settings: StoreSettings
    private(set) var products: [String: Product] = [:]
    /// Carts by ID, with an entry for each cart a unit touched, also one it left without a
    /// header or lines (a refused or undone change); reads treat such an entry as no cart.
    private(set) var carts: [String: Cart] = [:]
    /// Every order; order `n` is at index `n - 1`.
    private(set) var orders: [Order] = []
    private(set) var orderNumbers: [String: OrderNumber] = [:]
    private(set) var secret: StoreSecret?
    /// How many units have committed a change.
    private(set) var commits: Int64 = 0
    /// The unit's changes, oldest first.
    private var undoLog: [Undo] = []
    /// Carts the unit gave a line while they had no header.
    private var headerless: [String] = []

    init(settings: StoreSettings) {
        self.settings = settings
    }

    // MARK: Units of work

    /// Keeps the unit's changes, unless they leave lines in a cart that has no header.
    ///
    /// - Throws: `InMemoryStorageError.linesWithoutHeader`, as SQLite's foreign key refuses
    ///   such a commit; the caller rolls the unit back.
    mutating func commit() throws {
        for cart in headerless where carts[cart].map({ $0.header == nil && !$0.lines.isEmpty }) == true {
            throw InMemoryStorageError.linesWithoutHeader(cart: cart)
        }
        if !undoLog.isEmpty { commits += 1 }
        forget()
    }

    /// Undoes every change of the unit, newest first.
    mutating func rollBack() {
        for undo in undoLog.reversed() {
            switch undo {
            case .settings(let old): settings = old
            case .product(let sku, let product): products[sku] = product
            case .header(let cart, let header): carts[cart, default: Cart()].header = header
            case .line(let cart, let sku, let line): carts[cart, default: Cart()].lines[sku] = line
            case .cart(let id, let cart): carts[id] = cart
            case .order(let order):
                orders.removeLast()
                if let key = order.idempotencyKey { orderNumbers[key] = nil }
            case .secret: secret = nil
            }
        }
        forget()
    }

    /// Empties the unit's records, keeping their room for the next unit. Popping is the
    /// cheap way to do it for the few records a unit makes; `removeAll(keepingCapacity:)`
    /// replaces a subrange.
    private mutating func forget() {
        while undoLog.popLast() != nil {}
        while headerless.popLast() != nil {}
    }

    // MARK: Changes

    mutating func saveSettings(_ new: StoreSettings) {
        undoLog.append(.settings(settings))
        settings = new
    }

    /// Stores `product` where `exists` says a product with its SKU is, or is not, stored.
    mutating func saveProduct(_ product: Product, exists: Bool) throws(InMemoryStorageError) {
        try modifying(&products[product.sku]) { stored throws(InMemoryStorageError) in
            guard (stored != nil) == exists else { throw .product(product.sku, exists: !exists) }
            undoLog.append(.product(product.sku, stored))
            stored = product
        }
    }

    /// Deletes a product, which must exist and be in no cart's lines.
    mutating func deleteProduct(sku: String) throws(InMemoryStorageError) {
        guard let product = products[sku] else { throw .product(sku, exists: false) }
        if let cart = carts.first(where: { $0.value.lines[sku] != nil })?.key { throw .productInCart(sku, cart: cart) }
        undoLog.append(.product(sku, product))
        products[sku] = nil
    }

    mutating func insertLine(cartID: String, sku: String, quantity: Int, position: Int) throws(InMemoryStorageError) {
        guard products.index(forKey: sku) != nil else { throw .product(sku, exists: false) }
        guard quantity > 0 else { throw .nonPositiveQuantity(quantity) }
        try modifying(&carts[cartID, default: Cart()]) { cart throws(InMemoryStorageError) in
            if let stored = cart.lines.updateValue(Line(quantity: quantity, position: position), forKey: sku) {
                cart.lines[sku] = stored
                throw .line(cart: cartID, sku: sku, exists: true)
            }
            if cart.header == nil { headerless.append(cartID) }
            undoLog.append(.line(cart: cartID, sku: sku, nil))
        }
    }

    /// Sets a line's quantity (`nil` deletes it); the line must exist.
    mutating func changeLine(cartID: String, sku: String, quantity: Int?) throws(InMemoryStorageError) {
        if let quantity, quantity <= 0 { throw .nonPositiveQuantity(quantity) }
        try modifying(&carts[cartID, default: Cart()].lines[sku]) { line throws(InMemoryStorageError) in
            guard let old = line else { throw .line(cart: cartID, sku: sku, exists: false) }
            undoLog.append(.line(cart: cartID, sku: sku, old))
            line = quantity.map { Line(quantity: $0, position: old.position) }
        }
    }

    mutating func deleteLines(cartID: String) -> Int {
        guard let cart = carts[cartID], !cart.lines.isEmpty else { return 0 }
        undoLog.append(.cart(cartID, cart))
        carts[cartID]?.lines = [:]
        return cart.lines.count
    }

    mutating func saveHeader(_ header: CartHeader, previousVersion: Int?) throws(InMemoryStorageError) {
        try modifying(&carts[header.id, default: Cart()].header) { stored throws(InMemoryStorageError) in
            guard stored?.version == previousVersion else {
                throw .header(cart: header.id, stored: stored?.version, expected: previousVersion)
            }
            undoLog.append(.header(header.id, stored))
            stored = header
        }
    }

    mutating func deleteCart(id: String) throws(InMemoryStorageError) {
        guard let cart = carts[id], cart.header != nil else { throw .header(cart: id, stored: nil, expected: nil) }
        undoLog.append(.cart(id, cart))
        carts[id] = nil
    }

    mutating func insertOrder(_ order: Order) throws(InMemoryStorageError) {
        guard order.number.rawValue == Int64(orders.count) + 1 else { throw .orderNumberTaken(order.number) }
        if let key = order.idempotencyKey {
            guard orderNumbers[key] == nil else { throw .idempotencyKeyTaken(key) }
            orderNumbers[key] = order.number
        }
        undoLog.append(.order(order))
        orders.append(order)
    }

    mutating func insertSecret(_ new: StoreSecret) throws(InMemoryStorageError) {
        guard secret == nil else { throw .secretTaken }
        undoLog.append(.secret)
        secret = new
    }
}

/// Runs `change` on `value` in place: one access to a stored property or a dictionary entry
/// for a read and a write.
private func modifying<Value, Failure>(_ value: inout Value, _ change: (inout Value) throws(Failure) -> Void)
    throws(Failure)
{
    try change(&value)
}
