/// The changes to a cart's lines: the tutorial's `addToCart`, `removeFromCart`, `onDelete` and
/// `clearCart`, and setting a quantity, each one unit, also passed as a `CartChange` value.
extension CartService {
    /// Adds units of a product, merging into the existing line for the same SKU (the tutorial's
    /// `addToCart`).
    ///
    /// - Throws: `CartError.invalidCartID`, `.invalidSKU`, `.invalidQuantity` (below 1),
    ///   `.unknownProduct`, `.inactiveProduct`,
    ///   `.lineQuantityCapExceeded` (the line would hold more than the store's per-line cap),
    ///   `.insufficientStock`, `.lineCountCapExceeded`, `.versionConflict`, `.amountOverflow`,
    ///   `StoredDataError` (among them a line quantity another client stored out of range), or a
    ///   storage error.
    @discardableResult
    public func add(_ sku: String, quantity: Int = 1, to cartID: String, expectedVersion: Int? = nil) throws
        -> CartUpdate
    {
        try apply(.add(sku: sku, quantity: quantity), to: cartID, expectedVersion: expectedVersion)
    }

    /// Takes units of a product out of the cart; the line disappears when it reaches 0, also
    /// when more are removed than it holds (the tutorial's `removeFromCart`).
    ///
    /// - Throws: `CartError.invalidCartID`, `.invalidSKU`, `.invalidQuantity`, `.notInCart`, `.versionConflict`,
    ///   `StoredDataError` (among them a line quantity another client stored out of range), or a
    ///   storage error.
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
    /// A line whose stored quantity another client put outside the range the service works
    /// with (`StoredRange.lineQuantity`) is replaced: the new quantity is checked as `add`
    /// checks a new line's, and 0 deletes the line.
    ///
    /// - Throws: the errors of `add`.
    @discardableResult
    public func setQuantity(_ sku: String, to quantity: Int, in cartID: String, expectedVersion: Int? = nil)
        throws -> CartUpdate
    {
        try apply(.setQuantity(sku: sku, quantity: quantity), to: cartID, expectedVersion: expectedVersion)
    }

    /// Removes a product's whole line, whatever its quantity (the tutorial's `onDelete`), also
    /// one another client stored out of range.
    ///
    /// - Throws: `CartError.invalidCartID`, `.invalidSKU`, `.notInCart`, `.versionConflict`,
    ///   `StoredDataError`, or a storage error.
    @discardableResult
    public func deleteLine(_ sku: String, from cartID: String, expectedVersion: Int? = nil) throws -> CartUpdate {
        try apply(.deleteLine(sku: sku), to: cartID, expectedVersion: expectedVersion)
    }

    /// Removes every line (the tutorial's `clearCart`). Clearing a cart that has no lines changes
    /// nothing: its version stays, and a cart never written is not created.
    ///
    /// - Throws: `CartError.invalidCartID`, `.versionConflict`, `StoredDataError`, or a storage
    ///   error.
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
        let current = try Self.usableQuantity(context, sku: sku, cartID: id) ?? 0
        let (sum, overflow) = current.addingReportingOverflow(quantity)
        let requested = overflow ? Int.max : sum
        var cart = CartState(context)
        try Self.storeLine(sku, quantity: requested, in: id, context: context, cart: &cart, settings: settings, storage: storage)
        let version = try save(cart, id: id, in: storage)
        return CartUpdate(cartID: id, version: version, sku: sku, quantity: requested, previousQuantity: current)
    }

    private func remove(
        _ sku: String, quantity: Int, from id: String, expectedVersion: Int?, in storage: any CartStorageWriter
    ) throws -> CartUpdate {
        let context = try storage.lineContext(cartID: id, sku: sku)
        try Self.check(expectedVersion, againstVersion: context.cartVersion, cartID: id)
        guard let current = try Self.usableQuantity(context, sku: sku, cartID: id) else {
            throw CartError.notInCart(sku: sku, cart: id)
        }
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
        // A quantity another client stored out of range is no base to count from: the line is
        // replaced, the new quantity checked as `add` checks a line's, or deleted at 0.
        let current = try? Self.usableQuantity(context, sku: sku, cartID: id)
        if current == context.quantity, (current ?? 0) == quantity {
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
        return CartUpdate(
            cartID: id, version: version, sku: sku, quantity: quantity, previousQuantity: context.quantity ?? 0, changed: true)
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

    /// The line's quantity as `context` holds it, `nil` when the cart has no line for `sku`.
    ///
    /// - Throws: `StoredDataError` when another client stored a quantity outside
    ///   `StoredRange.lineQuantity`: no change can count from it.
    private static func usableQuantity(_ context: CartLineContext, sku: String, cartID: String)
        throws(StoredDataError) -> Int?
    {
        guard let quantity = context.quantity else { return nil }
        return try usableQuantity(quantity, sku: sku, cartID: cartID)
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
}
