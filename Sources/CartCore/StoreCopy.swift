/// Copies a whole store into an empty one, whatever the backend of each: a shop moving from
/// one SQLite file to a PostgreSQL server, or back.
///
/// ```swift
/// let source = try SQLiteCartRepository(path: "cart.sqlite3")
/// let target = try PostgresCartRepository(url: "postgresql://shop@db.internal/shop")
/// let copied = try StoreCopy.copy(from: source, to: target) { progress in
///     print("\(progress.copied.orders) of \(progress.total.orders) orders")
/// }
/// ```
///
/// Everything the store holds goes across as it is: the settings, every product, every cart
/// (its version, its last change and its line summary, and its lines in order) and every order
/// (its number, instant, idempotency key and lines), and the store secret unless the target
/// has one already, so that a server on the target recognises the cart IDs one on the source
/// minted. The source is read in one read unit, so the copy is of one moment; the target is
/// written in one write unit, so it holds all of it or nothing.
public enum StoreCopy {
    /// How far a copy has come.
    public struct Progress: Hashable, Sendable {
        /// What is in the target so far.
        public let copied: StoreCounts
        /// What the source holds.
        public let total: StoreCounts
    }

    /// How many products, carts or orders go across between two progress reports; products and
    /// orders go across in batches of this size.
    public static let progressInterval = 1000

    /// Copies `source` into `target`, which must hold no product, cart or order (its settings
    /// are replaced). `progress` is called as the copy goes, every `progressInterval` rows
    /// and once at the end, on the calling thread; an error it throws stops the copy (an
    /// interrupted command, say). A target that runs its unit again after a conflict starts
    /// the reports again.
    ///
    /// - Returns: what was copied.
    /// - Throws: `StoreCopyError.targetNotEmpty` (nothing written), `.productNotCopied`,
    ///   `StoredDataError` for a cart line whose product is gone, an order that lost lines, or
    ///   a SKU or cart ID the service would not take as it is,
    ///   what `progress` throws, or what either store throws; the target then keeps nothing of
    ///   the copy.
    @discardableResult
    public static func copy(
        from source: any CartRepository, to target: any CartRepository, progress: (Progress) throws -> Void = { _ in }
    ) throws -> StoreCounts {
        try source.read { from in
            let total = StoreCounts(products: try from.productCount(), carts: try from.cartCount(), orders: try from.orderCount())
            return try target.write { to in
                let present = StoreCounts(products: try to.productCount(), carts: try to.cartCount(), orders: try to.orderCount())
                guard present == StoreCounts(products: 0, carts: 0, orders: 0) else { throw StoreCopyError.targetNotEmpty(present) }
                var copied = StoreCounts(products: 0, carts: 0, orders: 0)
                try to.saveSettings(try from.settings())
                if let secret = try from.storeSecret(), try to.storeSecret() == nil { try to.insertStoreSecret(secret) }
                let products = try from.products()
                var start = products.startIndex
                while start < products.endIndex {
                    let batch = Array(products[start..<min(start + progressInterval, products.endIndex)])
                    // Named here, rather than by a CHECK of the target that names no value.
                    if let error = batch.lazy.compactMap({ StoredDataError.unusableSKU($0.sku) }).first { throw error }
                    if let index = try to.insertAbsentProducts(batch).firstIndex(of: false) {
                        throw StoreCopyError.productNotCopied(batch[index].sku)
                    }
                    start += batch.count
                    copied = StoreCounts(products: start, carts: 0, orders: 0)
                    try progress(Progress(copied: copied, total: total))
                }
                for cart in try from.carts() {
                    if let error = StoredDataError.unusableCartID(cart.id) { throw error }
                    guard let header = try from.cartHeader(id: cart.id) else { continue }
                    // Positions 1, 2, … keep the lines' order and stay below the header's next
                    // position, which was above all of the source's.
                    let lines = try CartService.usableLines(try from.cartLines(cartID: cart.id), cartID: cart.id)
                    // As an order that lost lines, a cart whose line lost its product is refused,
                    // not copied without the line.
                    if let sku = try CartService.linesWithoutProduct(header, read: lines, in: from).first {
                        throw StoredDataError.productGone(sku: sku, cartID: cart.id)
                    }
                    for (index, line) in lines.enumerated() {
                        try to.insertCartLine(cartID: cart.id, sku: line.product.sku, quantity: line.quantity, position: index + 1)
                    }
                    try to.saveCartHeader(header, previousVersion: nil)
                    copied = StoreCounts(products: copied.products, carts: copied.carts + 1, orders: 0)
                    if copied.carts % progressInterval == 0 { try progress(Progress(copied: copied, total: total)) }
                }
                var batch: [Order] = []
                func insertBatch() throws {
                    try to.insertOrders(batch)
                    copied = StoreCounts(products: copied.products, carts: copied.carts, orders: copied.orders + batch.count)
                    batch.removeAll(keepingCapacity: true)
                    try progress(Progress(copied: copied, total: total))
                }
                try from.forEachOrder { order in
                    // A copy is a backup: an order that lost lines is refused, not copied so.
                    if let error = StoredDataError.incomplete(order) { throw error }
                    if let error = StoredDataError.unusableCartID(order.cartID, named: "the cart ID of order \(order.number.rawValue)") { throw error }
                    for line in order.lines {
                        if let error = StoredDataError.unusableSKU(line.sku, of: "a line of order \(order.number.rawValue)") {
                            throw error
                        }
                    }
                    batch.append(order)
                    if batch.count == progressInterval { try insertBatch() }
                }
                if !batch.isEmpty { try insertBatch() }
                try progress(Progress(copied: copied, total: total))
                return copied
            }
        }
    }
}
