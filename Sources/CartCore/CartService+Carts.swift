#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension CartService {
    /// Moves every line of `source` into `target` in one atomic unit, as when an anonymous cart
    /// joins a customer's cart at sign-in. Quantities of the same SKU are summed; a line that
    /// would exceed the per-line cap or tracked stock is clamped, and one that cannot be added
    /// is left out; each such line is reported in `MergeResult.adjustments`. The source cart
    /// ends empty. A source that exists but has no lines (emptied by a checkout, say) merges
    /// nothing and changes nothing; one that was never written is not found, since a mistyped
    /// ID would otherwise pass for an empty cart, unless the caller knows the ID names a cart
    /// that reads as empty until it is first written (`unwrittenSourceIsEmpty`: a storefront's
    /// minted cart), which then merges nothing too. With `expectedVersion`, the merge happens
    /// only while `target` is at that version (0 for a cart never written), as other changes
    /// to a cart are made conditional.
    ///
    /// - Throws: `CartError.mergeIntoSelf`, `.cartNotFound`, `.versionConflict`,
    ///   `.invalidCartID`, `StoredDataError`, or a storage error.
    @discardableResult
    public func merge(
        from source: String, into target: String, expectedVersion: Int? = nil, unwrittenSourceIsEmpty: Bool = false
    ) throws -> MergeResult {
        let sourceID = try Validation.cartID(source)
        let targetID = try Validation.cartID(target)
        guard sourceID != targetID else { throw CartError.mergeIntoSelf(sourceID) }
        return try repository.write { storage in
            let settings = try Self.usableSettings(in: storage)
            let sourceHeader = try storage.cartHeader(id: sourceID)
            let targetHeader = try storage.cartHeader(id: targetID)
            // The precondition comes first, as for every other change: a stale client hears
            // that the cart moved on, whatever the source.
            try Self.check(expectedVersion, againstVersion: targetHeader?.version, cartID: targetID)
            guard let sourceHeader else {
                guard unwrittenSourceIsEmpty else { throw CartError.cartNotFound(sourceID) }
                return MergeResult(report: try Self.report(of: targetID, in: storage), mergedLines: 0, adjustments: [])
            }
            let incoming = try Self.usableLines(try storage.cartLines(cartID: sourceID), cartID: sourceID)
            let targetLines = try Self.usableLines(try storage.cartLines(cartID: targetID), cartID: targetID)
            var existing: [String: Int] = [:]
            for line in targetLines { existing[line.product.sku] = line.quantity }
            // `target.lineCount` is the header's count, as `add` checks the cap: it counts a
            // line whose product is gone too, which `cartLines` does not return.
            var target = CartState(targetHeader)
            var adjustments: [MergeResult.Adjustment] = []
            var merged = 0

            for line in incoming {
                let product = line.product
                let current = existing[product.sku] ?? 0
                let (sum, overflow) = current.addingReportingOverflow(line.quantity)
                let requested = overflow ? Int.max : sum
                func adjust(_ kept: Int, _ reason: MergeResult.Reason) {
                    adjustments.append(.init(sku: product.sku, requested: requested, kept: kept, reason: reason))
                }
                guard product.isActive else {
                    adjust(current, .inactiveProduct)
                    continue
                }
                if current == 0, target.lineCount >= settings.maxLinesPerCart {
                    adjust(0, .lineCountCap(settings.maxLinesPerCart))
                    continue
                }
                var kept = requested
                if let stock = product.stock, stock < settings.maxLineQuantity, kept > stock {
                    kept = max(current, stock)
                    adjust(kept, .stock(stock))
                } else if kept > settings.maxLineQuantity {
                    kept = max(current, settings.maxLineQuantity)
                    adjust(kept, .lineCap(settings.maxLineQuantity))
                }
                if kept > current {
                    _ = try product.price.multiplied(by: kept)
                    if existing[product.sku] == nil {
                        let position = try target.lineInserted(targetID)
                        try storage.insertCartLine(cartID: targetID, sku: product.sku, quantity: kept, position: position)
                    } else {
                        try storage.updateCartLine(cartID: targetID, sku: product.sku, quantity: kept)
                    }
                    existing[product.sku] = kept
                    merged += 1
                }
            }
            if !incoming.isEmpty {
                try storage.deleteCartLines(cartID: sourceID, including: incoming.map(\.product.sku))
                var source = CartState(sourceHeader)
                source.lineCount = 0
                _ = try save(source, id: sourceID, in: storage)
            }
            if merged > 0 {
                _ = try save(target, id: targetID, in: storage)
            }
            return MergeResult(report: try Self.report(of: targetID, in: storage), mergedLines: merged, adjustments: adjustments)
        }
    }

    /// Every stored cart, ordered by ID, with its line count, units and last change.
    ///
    /// - Throws: a storage error.
    public func listCarts() throws -> [CartSummary] {
        try repository.read { storage in try storage.carts() }
    }

    /// One page of the stored carts matching `query`, in ID order, with the cursor for the next
    /// page: the carts still in use (`nonEmpty`) among those checkouts emptied.
    ///
    /// - Throws: `CartError.invalidLimit` for a limit outside 1...10000, `.invalidCartID` for an
    ///   empty `after`, which no page's `next` is, or a storage error.
    public func carts(matching query: CartQuery) throws -> CartPage {
        if let limit = query.limit, !(1...Self.maxPageSize).contains(limit) { throw CartError.invalidLimit(limit) }
        // Taken as the first page, an emptied `next` would page a client through the carts forever.
        if query.after?.isEmpty == true { throw CartError.invalidCartID("", reason: "it is empty") }
        // One cart more than the page says whether another page follows.
        let selected = try repository.read { storage in
            try storage.carts(after: query.after, nonEmpty: query.nonEmpty, limit: query.limit.map { $0 + 1 })
        }
        guard let limit = query.limit, selected.count > limit else { return CartPage(carts: selected, next: nil) }
        let page = Array(selected.prefix(limit))
        return CartPage(carts: page, next: page.last?.id)
    }

    /// Deletes carts not changed since `instant` (abandoned carts); orders are never touched.
    /// A deleted cart written again starts over at version 1, so a version a client kept from
    /// before may match the new cart: clients that hold versions across long pauses should
    /// read the cart again first.
    ///
    /// - Returns: how many carts were deleted.
    /// - Throws: a storage error.
    @discardableResult
    public func prune(olderThan instant: Date) throws -> Int {
        try repository.write { storage in try storage.deleteCarts(updatedBefore: instant) }
    }

    /// Deletes carts not changed for `age` before now, by the service's clock.
    ///
    /// - Returns: how many carts were deleted.
    /// - Throws: `CartError.negativeAge` for an age below zero, or a storage error.
    @discardableResult
    public func prune(notChangedFor age: Duration) throws -> Int {
        guard age >= .zero else { throw CartError.negativeAge(age) }
        return try prune(olderThan: clock().addingTimeInterval(-(age / .seconds(1))))
    }

    /// `id` if it is a cart ID the service accepts: 1 to 128 printable ASCII characters
    /// without surrounding space. For a front end that tells a malformed ID from one its
    /// caller may not reach before it calls the service.
    ///
    /// - Throws: `CartError.invalidCartID`.
    public static func validatedCartID(_ id: String) throws(CartError) -> String {
        try Validation.cartID(id)
    }
}
