extension CartService {
    /// Turns the cart into an order in one atomic unit: re-checks every line, numbers the order
    /// (gapless), freezes names and prices into order lines, decrements tracked stock and
    /// clears the cart.
    ///
    /// With an `idempotencyKey`, a retry of the same checkout (a double click, a timeout, another
    /// process) returns the same order with `replayed == true` and changes nothing. With an
    /// `expectedTotal` (the total the customer was shown), the order is placed only at that
    /// total, so a price changed meanwhile is not charged unseen.
    ///
    /// - Throws: `CartError.invalidCartID`; `.invalidIdempotencyKey`; `.emptyCart`;
    ///   `.cannotCheckOut` naming every problem of the cart (the
    ///   problems `cartReport(_:)` lists); `.idempotencyKeyReused` when the key placed another
    ///   cart's order; `.versionConflict`; `.totalChanged`; `.amountOverflow`; `StoredDataError`;
    ///   or a storage error. Nothing changes when it throws.
    public func checkout(
        _ cartID: String, idempotencyKey: String? = nil, expectedVersion: Int? = nil, expectedTotal: Money? = nil
    ) throws -> CheckoutResult {
        let id = try Validation.cartID(cartID)
        let key = try idempotencyKey.map { key throws(CartError) in try Validation.idempotencyKey(key) }
        return try repository.write { storage in
            if let key, let earlier = try storage.order(idempotencyKey: key) {
                guard earlier.cartID == id else { throw CartError.idempotencyKeyReused(key: key, cart: earlier.cartID) }
                return CheckoutResult(order: earlier, replayed: true)
            }
            let settings = try Self.usableSettings(in: storage)
            let header = try storage.cartHeader(id: id)
            try Self.check(expectedVersion, againstVersion: header?.version, cartID: id)
            let stored = try storage.cartLines(cartID: id)
            let missing = try Self.linesWithoutProduct(header, read: stored, in: storage)
            guard !stored.isEmpty || !missing.isEmpty else { throw CartError.emptyCart(id) }
            let problems = Self.problems(of: stored, without: missing, settings: settings)
            guard problems.isEmpty else { throw CartError.cannotCheckOut(cart: id, problems: problems) }

            var lines: [OrderLine] = []
            lines.reserveCapacity(stored.count)
            var totalItems = 0
            var total = Money.zero(settings.currency)
            for line in stored {
                let product = line.product
                let lineTotal = try product.price.multiplied(by: line.quantity)
                lines.append(
                    OrderLine(
                        sku: product.sku, name: product.name, unitPrice: product.price, quantity: line.quantity,
                        lineTotal: lineTotal))
                let (items, overflow) = totalItems.addingReportingOverflow(line.quantity)
                guard !overflow else { throw CartError.amountOverflow }
                totalItems = items
                total = try total.adding(lineTotal)
            }
            if let expectedTotal, expectedTotal != total {
                throw CartError.totalChanged(cart: id, expected: expectedTotal, actual: total)
            }

            let last = try storage.lastOrderNumber().rawValue
            guard last < Int64.max else { throw StoredDataError("the last order number is \(last), the largest integer") }
            let number = OrderNumber(rawValue: last + 1)
            let order = Order(
                number: number, cartID: id, placedAt: now(), currency: settings.currency,
                totalItems: totalItems, total: total, idempotencyKey: key, lines: lines)
            try storage.insertOrder(order)
            for line in stored {
                guard let stock = line.product.stock else { continue }
                var product = line.product
                let (left, overflow) = stock.subtractingReportingOverflow(line.quantity)
                guard !overflow, left >= 0 else {
                    throw StoredDataError(
                        "the stock of product '\(product.sku.displayable)' is \(stock), from which \(line.quantity) cannot be taken")
                }
                product.stock = left
                try storage.updateProductStock(product)
            }
            try storage.deleteCartLines(cartID: id, including: stored.map(\.product.sku))
            var cart = CartState(header)
            cart.lineCount = 0
            _ = try save(cart, id: id, in: storage)
            return CheckoutResult(order: order, replayed: false)
        }
    }
}
