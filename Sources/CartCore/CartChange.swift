/// One change to a cart's lines, as a value: what `CartService.apply(_:to:expectedVersion:)`
/// and `CartService.applyAndReport(_:to:expectedVersion:)` make, and what each of the
/// service's line mutations is.
///
/// ```swift
/// let change = CartChange.add(sku: "apple", quantity: 2)
/// let (update, report) = try service.applyAndReport(change, to: "alice")
/// update.quantity      // the line's quantity now
/// report.cart.version  // the version the change made
/// ```
public enum CartChange: Hashable, Sendable {
    /// Adds units of a product, merging into its line: `CartService.add(_:quantity:to:expectedVersion:)`.
    case add(sku: String, quantity: Int)
    /// Takes units of a product out: `CartService.remove(_:quantity:from:expectedVersion:)`.
    case remove(sku: String, quantity: Int)
    /// Sets a line to a quantity, 0 removing it: `CartService.setQuantity(_:to:in:expectedVersion:)`.
    case setQuantity(sku: String, quantity: Int)
    /// Removes a product's whole line: `CartService.deleteLine(_:from:expectedVersion:)`.
    case deleteLine(sku: String)
    /// Removes every line: `CartService.clear(_:expectedVersion:)`.
    case clear
}
