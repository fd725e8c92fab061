#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// The one place the cart rules live: quantities, caps, stock, versions, checkout.
///
/// A service wraps any `CartRepository`; pick the backend by injecting it:
///
/// ```swift
/// let service = CartService(repository: try SQLiteCartRepository(path: "cart.sqlite3"))
/// try service.add("apple", quantity: 2, to: "alice")
/// let cart = try service.cart("alice")   // survives restarts
/// ```
///
/// Each mutation is one atomic unit (`CartRepository.write(_:)`): it reads what it needs,
/// checks the rules and writes, so concurrent callers, also in other processes, never lose an
/// update. Rule violations throw `CartError` and change nothing; storage failures throw the
/// backend's error.
public struct CartService: Sendable {
    /// The backend the service reads and writes.
    public let repository: any CartRepository
    /// The clock that stamps cart changes and orders; inject a fixed one in tests.
    public let clock: @Sendable () -> Date

    /// Creates a service over a repository.
    public init(repository: any CartRepository, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.repository = repository
        self.clock = clock
    }

    // MARK: - Reading carts

    /// The cart with its lines at current prices; an empty cart at version 0 if never written.
    ///
    /// - Throws: `CartError.invalidCartID`, `CartError.amountOverflow`, or a storage error.
    public func cart(_ cartID: String) throws -> Cart {
        let id = try Validation.cartID(cartID)
        return try repository.read { storage in try Self.snapshot(of: id, in: storage) }
    }

    static func snapshot(of id: String, in storage: any CartStorageReader) throws -> Cart {
        let settings = try storage.settings()
        guard let header = try storage.cartHeader(id: id) else {
            return try Cart(id: id, version: 0, lines: [], currency: settings.currency)
        }
        return try cart(id, version: header.version, lines: try storage.cartLines(cartID: id), currency: settings.currency)
    }

    /// The cart of these stored lines, priced as their products are now.
    static func cart(_ id: String, version: Int, lines: [StoredCartLine], currency: Currency) throws(CartError) -> Cart {
        let lines = try lines.map { stored throws(CartError) in
            try CartLine(
                sku: stored.product.sku, name: stored.product.name, quantity: stored.quantity,
                unitPrice: stored.product.price)
        }
        return try Cart(id: id, version: version, lines: lines, currency: currency)
    }

    // MARK: - Changing carts

    /// Adds units of a product, merging into the existing line for the same SKU (the tutorial's
    /// `addToCart`).
    ///
    /// - Throws: `CartError.invalidQuantity` (below 1), `.unknownProduct`, `.inactiveProduct`,
    ///   `.lineQuantityCapExceeded` (the line would hold more than the store's per-line cap),
    ///   `.insufficientStock`, `.lineCountCapExceeded`, `.versionConflict`, `.amountOverflow`,
    ///   `StoredDataError`, or a storage error.
    @discardableResult
    public func add(_ sku: String, quantity: Int = 1, to cartID: String, expectedVersion: Int? = nil) throws
        -> CartUpdate
    {
        try apply(.add(sku: sku, quantity: quantity), to: cartID, expectedVersion: expectedVersion)
    }

    /// Takes units of a product out of the cart; the line disappears when it reaches 0, also
    /// when more are removed than it holds (the tutorial's `removeFromCart`).
    ///
    /// - Throws: `CartError.invalidQuantity`, `.notInCart`, `.versionConflict`,
    ///   `StoredDataError`, or a storage error.
    @discardableResult
    public func remove(_ sku: String, quantity: Int = 1, from cartID: String, expectedVersion: Int? = nil)
        throws -> CartUpdate
    {
        try apply(.remove(sku: sku, quantity: quantity), to: cartID, expectedVersion: expectedVersion)
    }

    /// Sets a line to exactly `quantity`; 0 removes the line. A quantity above the line's is
    /// checked as `add` checks it; one below is taken as `remove` takes units out, so a line
    /// above a cap lowered since, above the stock left, or of a product no longer for sale can
    /// be brought down. Setting the quantity a line already has changes nothing, and a missing
    /// line has 0, so setting 0 there changes nothing either: a retried "remove it" succeeds.
    ///
    /// - Throws: the errors of `add`.
    @discardableResult
    public func setQuantity(_ sku: String, to quantity: Int, in cartID: String, expectedVersion: Int? = nil)
        throws -> CartUpdate
    {
        try apply(.setQuantity(sku: sku, quantity: quantity), to: cartID, expectedVersion: expectedVersion)
    }

    /// Removes a product's whole line, whatever its quantity (the tutorial's `onDelete`).
    ///
    /// - Throws: `CartError.notInCart`, `.versionConflict`, `StoredDataError`, or a storage error.
    @discardableResult
    public func deleteLine(_ sku: String, from cartID: String, expectedVersion: Int? = nil) throws -> CartUpdate {
        try apply(.deleteLine(sku: sku), to: cartID, expectedVersion: expectedVersion)
    }

    /// Removes every line (the tutorial's `clearCart`). Clearing a cart that has no lines changes
    /// nothing: its version stays, and a cart never written is not created.
    ///
    /// - Throws: `CartError.versionConflict`, `StoredDataError`, or a storage error.
    @discardableResult
    public func clear(_ cartID: String, expectedVersion: Int? = nil) throws -> CartUpdate {
        try apply(.clear, to: cartID, expectedVersion: expectedVersion)
    }

    /// Makes `change` to cart `cartID` in one unit: what `add`, `remove`, `setQuantity`,
    /// `deleteLine` and `clear` do, for a change passed around as a value.
    ///
    /// - Throws: the errors of the method the change stands for.
    @discardableResult
    public func apply(_ change: CartChange, to cartID: String, expectedVersion: Int? = nil) throws -> CartUpdate {
        let unit = try self.unit(change, to: cartID, expectedVersion: expectedVersion)
        return try repository.write(unit.body)
    }

    /// Makes `change` to cart `cartID` and reads the cart with its problems as the change left
    /// it, in the same unit: what a client that shows the cart after each change needs, without
    /// a second unit, and without another client's later change in between.
    ///
    /// - Throws: the errors of the method the change stands for.
    public func applyAndReport(_ change: CartChange, to cartID: String, expectedVersion: Int? = nil) throws
        -> (update: CartUpdate, report: CartReport)
    {
        let unit = try self.unit(change, to: cartID, expectedVersion: expectedVersion)
        return try repository.write { storage in
            let update = try unit.body(storage)
            return (update, try Self.report(of: unit.cartID, in: storage.readerWithoutLocks))
        }
    }

    /// A change with its arguments checked, ready to run in a write unit.
    private struct ChangeUnit {
        let cartID: String
        let body: (any CartStorageWriter) throws -> CartUpdate
    }

    /// Checks `change`'s arguments, before any unit starts, and returns the unit that makes it.
    private func unit(_ change: CartChange, to cartID: String, expectedVersion: Int?) throws -> ChangeUnit {
        switch change {
        case .add(let sku, let quantity):
            let sku = try Validation.sku(sku)
            let id = try Validation.cartID(cartID)
            // Below 1 is malformed; above the store's per-line cap is a rule's refusal, checked
            // with the line's new quantity.
            guard quantity >= 1 else { throw CartError.invalidQuantity(given: quantity, range: 1...Int.max) }
            return ChangeUnit(cartID: id) { storage in
                try self.add(sku, quantity: quantity, to: id, expectedVersion: expectedVersion, in: storage)
            }
        case .remove(let sku, let quantity):
            let sku = try Validation.sku(sku)
            let id = try Validation.cartID(cartID)
            guard quantity >= 1 else { throw CartError.invalidQuantity(given: quantity, range: 1...Int.max) }
            return ChangeUnit(cartID: id) { storage in
                try self.remove(sku, quantity: quantity, from: id, expectedVersion: expectedVersion, in: storage)
            }
        case .setQuantity(let sku, let quantity):
            let sku = try Validation.sku(sku)
            let id = try Validation.cartID(cartID)
            guard quantity >= 0 else { throw CartError.invalidQuantity(given: quantity, range: 0...Int.max) }
            return ChangeUnit(cartID: id) { storage in
                try self.setQuantity(sku, to: quantity, in: id, expectedVersion: expectedVersion, in: storage)
            }
        case .deleteLine(let sku):
            let sku = try Validation.sku(sku)
            let id = try Validation.cartID(cartID)
            return ChangeUnit(cartID: id) { storage in
                try self.deleteLine(sku, from: id, expectedVersion: expectedVersion, in: storage)
            }
        case .clear:
            let id = try Validation.cartID(cartID)
            return ChangeUnit(cartID: id) { storage in
                try self.clear(id, expectedVersion: expectedVersion, in: storage)
            }
        }
    }

    private func add(_ sku: String, quantity: Int, to id: String, expectedVersion: Int?, in storage: any CartStorageWriter)
        throws -> CartUpdate
    {
        let context = try storage.lineContext(cartID: id, sku: sku)
        let settings = try StoredDataError.checked(context.settings)
        try Self.check(expectedVersion, againstVersion: context.cartVersion, cartID: id)
        let (sum, overflow) = (context.quantity ?? 0).addingReportingOverflow(quantity)
        let requested = overflow ? Int.max : sum
        var cart = CartState(context)
        try Self.storeLine(sku, quantity: requested, in: id, context: context, cart: &cart, settings: settings, storage: storage)
        let version = try save(cart, id: id, in: storage)
        return CartUpdate(
            cartID: id, version: version, sku: sku, quantity: requested, previousQuantity: context.quantity ?? 0)
    }

    private func remove(
        _ sku: String, quantity: Int, from id: String, expectedVersion: Int?, in storage: any CartStorageWriter
    ) throws -> CartUpdate {
        let context = try storage.lineContext(cartID: id, sku: sku)
        try Self.check(expectedVersion, againstVersion: context.cartVersion, cartID: id)
        guard let current = context.quantity else { throw CartError.notInCart(sku: sku, cart: id) }
        var cart = CartState(context)
        let remaining = current > quantity ? current - quantity : 0
        if remaining == 0 {
            try storage.deleteCartLine(cartID: id, sku: sku)
            cart.lineDeleted()
        } else {
            try storage.updateCartLine(cartID: id, sku: sku, quantity: remaining)
        }
        let version = try save(cart, id: id, in: storage)
        return CartUpdate(
            cartID: id, version: version, sku: sku, quantity: remaining, previousQuantity: current, changed: true)
    }

    private func setQuantity(
        _ sku: String, to quantity: Int, in id: String, expectedVersion: Int?, in storage: any CartStorageWriter
    ) throws -> CartUpdate {
        let context = try storage.lineContext(cartID: id, sku: sku)
        let settings = try StoredDataError.checked(context.settings)
        try Self.check(expectedVersion, againstVersion: context.cartVersion, cartID: id)
        let current = context.quantity
        if (current ?? 0) == quantity {
            return CartUpdate(
                cartID: id, version: context.cartVersion ?? 0, sku: sku, quantity: quantity, previousQuantity: quantity)
        }
        var cart = CartState(context)
        if quantity == 0 {
            try storage.deleteCartLine(cartID: id, sku: sku)
            cart.lineDeleted()
        } else if let current, quantity < current {
            try storage.updateCartLine(cartID: id, sku: sku, quantity: quantity)
        } else {
            try Self.storeLine(sku, quantity: quantity, in: id, context: context, cart: &cart, settings: settings, storage: storage)
        }
        let version = try save(cart, id: id, in: storage)
        return CartUpdate(cartID: id, version: version, sku: sku, quantity: quantity, previousQuantity: current ?? 0)
    }

    private func deleteLine(_ sku: String, from id: String, expectedVersion: Int?, in storage: any CartStorageWriter)
        throws -> CartUpdate
    {
        let context = try storage.lineContext(cartID: id, sku: sku)
        try Self.check(expectedVersion, againstVersion: context.cartVersion, cartID: id)
        guard let current = context.quantity else { throw CartError.notInCart(sku: sku, cart: id) }
        try storage.deleteCartLine(cartID: id, sku: sku)
        var cart = CartState(context)
        cart.lineDeleted()
        let version = try save(cart, id: id, in: storage)
        return CartUpdate(cartID: id, version: version, sku: sku, quantity: 0, previousQuantity: current, changed: true)
    }

    private func clear(_ id: String, expectedVersion: Int?, in storage: any CartStorageWriter) throws -> CartUpdate {
        let header = try storage.cartHeader(id: id)
        try Self.check(expectedVersion, againstVersion: header?.version, cartID: id)
        // What was deleted says whether there was anything to clear: a stored line count
        // could be off if another client wrote lines behind the service's back.
        guard try storage.deleteCartLines(cartID: id) > 0 else {
            return CartUpdate(
                cartID: id, version: header?.version ?? 0, sku: nil, quantity: 0, previousQuantity: 0, changed: false)
        }
        var cart = CartState(header)
        cart.lineCount = 0
        let version = try save(cart, id: id, in: storage)
        return CartUpdate(cartID: id, version: version, sku: nil, quantity: 0, previousQuantity: 0, changed: true)
    }

    // MARK: - Rules shared by the mutations

    /// The store settings, checked against the ranges the rules rely on (a cap below 1 would
    /// leave no quantity valid): another client may have stored any value.
    ///
    /// - Throws: `StoredDataError`, or a storage error.
    static func usableSettings(in storage: any CartStorageReader) throws -> StoreSettings {
        try StoredDataError.checked(try storage.settings())
    }

    /// Stores a line of `quantity` units after checking every rule a line must meet: the product
    /// exists and is active, the per-line cap, tracked stock, 64-bit money, and, for a new line,
    /// the lines-per-cart cap. A new line takes the cart's next position. Used by `add` and
    /// `setQuantity`.
    static func storeLine(
        _ sku: String, quantity: Int, in id: String, context: CartLineContext, cart: inout CartState,
        settings: StoreSettings, storage: any CartStorageWriter
    ) throws {
        let product = try sellable(context.terms, sku: sku)
        try checkLine(sku, product, quantity: quantity, settings: settings)
        guard context.quantity == nil else {
            return try storage.updateCartLine(cartID: id, sku: sku, quantity: quantity)
        }
        do {
            try checkRoomForNewLine(lineCount: context.lineCount, in: id, settings: settings)
        } catch {
            // The cap is checked against the count the cart's row keeps; before refusing, the
            // lines are counted, so that a count another client made wrong is named as such.
            let held = try storage.cartLines(cartID: id).count
            guard held == context.lineCount else {
                throw StoredDataError("cart '\(id.displayable)' counts \(context.lineCount) lines in its row, but holds \(held)")
            }
            throw error
        }
        let position = try cart.lineInserted(id)
        try storage.insertCartLine(cartID: id, sku: sku, quantity: quantity, position: position)
    }

    /// Throws `versionConflict` unless the cart is at the `expected` version (0 for a cart never
    /// written, whose `version` is `nil`), or nothing is expected.
    static func check(_ expected: Int?, againstVersion version: Int?, cartID: String) throws(CartError) {
        guard let expected else { return }
        let actual = version ?? 0
        guard actual == expected else { throw .versionConflict(cart: cartID, expected: expected, actual: actual) }
    }

    /// The product's terms, if it exists and is active.
    static func sellable(_ product: ProductTerms?, sku: String) throws(CartError) -> ProductTerms {
        guard let product else { throw .unknownProduct(sku) }
        guard product.isActive else { throw .inactiveProduct(sku) }
        return product
    }

    /// A line of `quantity` units of the product with this SKU and terms must fit the per-line
    /// cap, the tracked stock, and 64-bit money.
    static func checkLine(_ sku: String, _ terms: ProductTerms, quantity: Int, settings: StoreSettings)
        throws(CartError)
    {
        guard quantity <= settings.maxLineQuantity else {
            throw .lineQuantityCapExceeded(sku: sku, requested: quantity, cap: settings.maxLineQuantity)
        }
        if let stock = terms.stock, quantity > stock {
            throw .insufficientStock(sku: sku, requested: quantity, available: stock)
        }
        _ = try terms.price.multiplied(by: quantity)
    }

    /// A cart holding `lineCount` lines must have room for one more.
    static func checkRoomForNewLine(lineCount: Int, in cartID: String, settings: StoreSettings) throws(CartError) {
        guard lineCount < settings.maxLinesPerCart else {
            throw .lineCountCapExceeded(cart: cartID, cap: settings.maxLinesPerCart)
        }
    }

    /// Stores the cart's header at the version after `cart.version`, stamped now, with the
    /// line summary `cart` holds, and returns the new version.
    ///
    /// - Throws: `StoredDataError` when the stored version is the largest integer, or a storage
    ///   error.
    func save(_ cart: CartState, id: String, in storage: any CartStorageWriter) throws -> Int {
        let version = try StoredDataError.successor(of: cart.version ?? 0, "the version of cart '\(id.displayable)'")
        try storage.saveCartHeader(
            CartHeader(
                id: id, version: version, updatedAt: now(), lineCount: cart.lineCount,
                nextLinePosition: cart.nextLinePosition),
            previousVersion: cart.version)
        return version
    }

    /// The clock's time to the whole millisecond, the precision every store keeps, so that
    /// what a call returns (an order's `placedAt`) is what a later read of the store returns.
    func now() -> Date {
        UTCCalendar.date(milliseconds: UTCCalendar.milliseconds(clock()))
    }
}

/// The header fields a change to a cart starts from and updates: its version as read (`nil`
/// for a cart never written) and its line summary.
struct CartState {
    var version: Int?
    var lineCount: Int
    var nextLinePosition: Int

    init(_ header: CartHeader?) {
        version = header?.version
        lineCount = header?.lineCount ?? 0
        nextLinePosition = header?.nextLinePosition ?? 1
    }

    init(_ context: CartLineContext) {
        version = context.cartVersion
        lineCount = context.lineCount
        nextLinePosition = context.nextLinePosition
    }

    /// Counts a new line and returns the position it takes.
    ///
    /// - Throws: `StoredDataError` when the stored summary is at the largest integer.
    mutating func lineInserted(_ cartID: String) throws(StoredDataError) -> Int {
        let position = nextLinePosition
        lineCount = try StoredDataError.successor(of: lineCount, "the line count of cart '\(cartID.displayable)'")
        nextLinePosition = try StoredDataError.successor(
            of: position, "the next line position of cart '\(cartID.displayable)'")
        return position
    }

    /// Counts a deleted line.
    mutating func lineDeleted() {
        lineCount = lineCount > 0 ? lineCount - 1 : 0
    }
}
