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
        let lines = try usableLines(try storage.cartLines(cartID: id), cartID: id)
        return try cart(id, version: header.version, lines: lines, currency: settings.currency)
    }

    /// The line's quantity, checked against `StoredRange.lineQuantity`: backends return it as
    /// stored, and another client may have stored any integer.
    ///
    /// - Throws: `StoredDataError` naming the line and the value.
    static func usableQuantity(_ quantity: Int, sku: String, cartID: String) throws(StoredDataError) -> Int {
        try StoredDataError.checked(
            Int64(quantity), in: StoredRange.lineQuantity, "the quantity of '\(sku.displayable)' in cart '\(cartID.displayable)'")
    }

    /// `lines`, once every quantity is usable (`usableQuantity(_:sku:cartID:)`): what a change
    /// that counts from the lines' units, or copies them, works with.
    ///
    /// - Throws: `StoredDataError` for the first line whose quantity is out of range.
    static func usableLines(_ lines: [StoredCartLine], cartID: String) throws(StoredDataError) -> [StoredCartLine] {
        for line in lines { _ = try usableQuantity(line.quantity, sku: line.product.sku, cartID: cartID) }
        return lines
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
    /// - Throws: `CartError.invalidCartID` for a new cart called `.` or `..`, which no URL can
    ///   name (a cart another client stored so is still read and changed);
    ///   `StoredDataError` when the stored version is the largest integer; or a storage error.
    func save(_ cart: CartState, id: String, in storage: any CartStorageWriter) throws -> Int {
        if cart.version == nil, Validation.isDotSegment(id) {
            throw CartError.invalidCartID(id, reason: Validation.dotSegmentReason)
        }
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
