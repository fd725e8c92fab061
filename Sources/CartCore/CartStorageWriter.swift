#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// The writes a backend offers inside a `write(_:)` unit, besides its reads: the basics every
/// store answers.
///
/// Each write states what it may assume. `CartService` only makes calls that meet those
/// assumptions, having read in the same unit what they depend on; a backend may check them
/// and throw its storage error when one does not hold (another client changed the data
/// behind the service's back), but must never store something else instead. Optional, faster
/// writes with default implementations are in `CartStorageWriter+FastPaths.swift`.
public protocol CartStorageWriter: CartStorageReader {
    /// The settings, read by a unit that goes on to save them. A backend whose write units
    /// run side by side locks them here, before reading, against every other unit until this
    /// one ends: two such units that each read first and then waited for the other would
    /// deadlock. The default is `settings()`.
    func settingsForChange() throws -> StoreSettings

    /// Replaces the store settings.
    func saveSettings(_ settings: StoreSettings) throws

    /// This unit's reads, taking no locks: for reading back, after the unit's last write, what
    /// the caller is shown of its result. Such reads decide nothing, so they need hold nothing
    /// until the unit ends, and a lock taken there could only make other units wait (or, taken
    /// late, deadlock). A backend whose write units run side by side returns a reader on the
    /// same transaction whose reads lock nothing; the default is the storage itself, right
    /// for a backend that runs one write unit at a time.
    var readerWithoutLocks: any CartStorageReader { get }

    /// Stores a new product. No product has its SKU.
    func insertProduct(_ product: Product) throws

    /// Replaces the stored product that has `product.sku`, which exists.
    func updateProduct(_ product: Product) throws

    /// Deletes the product with this SKU, which exists and which no cart line holds. Orders are
    /// not touched: their lines hold copies of the product's fields.
    func deleteProduct(sku: String) throws

    /// Adds a line to a cart at `position`, the header's `nextLinePosition`. The cart has no
    /// line for `sku` and a product with `sku` exists. The cart's header, with its summary
    /// counting the line, is saved in the same unit, before or after.
    func insertCartLine(cartID: String, sku: String, quantity: Int, position: Int) throws

    /// Sets the quantity of a line, which exists; its position stays.
    func updateCartLine(cartID: String, sku: String, quantity: Int) throws

    /// Removes a line, which exists.
    func deleteCartLine(cartID: String, sku: String) throws

    /// Removes every line of the cart, and returns how many there were.
    @discardableResult
    func deleteCartLines(cartID: String) throws -> Int

    /// Stores the cart's header, all of its fields. `previousVersion` is the version the unit
    /// read: `nil` when the cart had no header, which is then inserted; otherwise the stored
    /// header is replaced.
    func saveCartHeader(_ header: CartHeader, previousVersion: Int?) throws

    /// Deletes a cart, which exists: its header and its lines.
    func deleteCart(id: String) throws

    /// Stores a new order with its lines. Its number is one above `lastOrderNumber()`, and no
    /// order has its idempotency key.
    func insertOrder(_ order: Order) throws

    /// Stores the store's secret. The store has none yet.
    func insertStoreSecret(_ secret: StoreSecret) throws

    // Fast paths: declared here so that a backend's override is what a call through
    // `any CartStorageWriter` reaches; the defaults are in the extension.

    /// Stores each product whose SKU no stored product has, and says which it stored, in
    /// order. The SKUs differ.
    func insertAbsentProducts(_ products: [Product]) throws -> [Bool]
    /// Stores new orders with their lines, in order: the first's number is one above
    /// `lastOrderNumber()`, each next one is one above the one before, and no two orders, stored
    /// or given, have the same idempotency key. A refused order is not stored, nor any after it;
    /// those before it may be, so a unit that meets a refusal ends by throwing.
    func insertOrders(_ orders: [Order]) throws
    /// Stores `product`, which exists and of which only the stock changed.
    func updateProductStock(_ product: Product) throws
    /// Removes every line of the cart, and returns how many there were. `skus` are the SKUs of
    /// lines this unit read, which a backend may delete by key; the cart's other lines, if it
    /// has any, go too.
    @discardableResult
    func deleteCartLines(cartID: String, including skus: [String]) throws -> Int
    /// Deletes the carts (headers and lines) whose `updatedAt` is before `instant` at the stored
    /// precision (its millisecond below `UTCCalendar.ceilingMilliseconds(instant)`), and returns
    /// how many.
    func deleteCarts(updatedBefore instant: Date) throws -> Int
}

extension CartStorageWriter {
    public func settingsForChange() throws -> StoreSettings { try settings() }

    public var readerWithoutLocks: any CartStorageReader { self }
}
