public import CartCore

extension CartStore {
    /// Adds units of a product, merging into its line (the tutorial's `addToCart`). A refusal, such
    /// as an unknown product or too little stock, goes to `lastError`.
    public func add(_ sku: String, quantity: Int = 1) {
        perform { try service.add(sku, quantity: quantity, to: cartID) }
    }

    /// Takes units of a product out; the line goes when it reaches 0 (the tutorial's
    /// `removeFromCart`). A refusal goes to `lastError`.
    public func remove(_ sku: String, quantity: Int = 1) {
        perform { try service.remove(sku, quantity: quantity, from: cartID) }
    }

    /// Sets a line to exactly `quantity`; 0 removes it. A refusal goes to `lastError`.
    public func setQuantity(_ sku: String, to quantity: Int) {
        perform { try service.setQuantity(sku, to: quantity, in: cartID) }
    }

    /// Removes a whole line, whatever its quantity (the tutorial's `onDelete`). A refusal goes to
    /// `lastError`.
    public func deleteLine(_ sku: String) {
        perform { try service.deleteLine(sku, from: cartID) }
    }

    /// Removes every line (the tutorial's `clearCart`). A failure goes to `lastError`.
    public func clear() {
        perform { try service.clear(cartID) }
    }

    /// Turns the cart into an order; the store then shows the emptied cart. Pass the same
    /// `idempotencyKey` when retrying, so a double tap places one order, and the `subtotal`
    /// the view shows as `expectedTotal`, so that a price changed unseen is shown before it is
    /// charged: such a cart is not ordered, `lastError` is `.rule(.totalChanged(…))`, and the
    /// store shows the cart at its new total.
    ///
    /// - Returns: the order placed (or replayed), or `nil` with the reason in `lastError`.
    @discardableResult
    public func checkout(idempotencyKey: String? = nil, expectedTotal: Money? = nil) -> CheckoutResult? {
        let result = perform { try service.checkout(cartID, idempotencyKey: idempotencyKey, expectedTotal: expectedTotal) }
        if result == nil, case .rule(.totalChanged)? = lastError { try? reload() }
        return result
    }
}
