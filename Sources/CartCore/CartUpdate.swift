/// What a cart mutation did: the cart's new version and the touched line's quantity before
/// and after.
public struct CartUpdate: Hashable, Sendable {
    /// The cart ID.
    public let cartID: String
    /// The cart's version after the change.
    public let version: Int
    /// The SKU of the line changed, or `nil` for `clear()`.
    public let sku: String?
    /// The line's quantity after the change; 0 when the line is gone.
    public let quantity: Int
    /// The line's quantity before the change; 0 when the cart had no line for the SKU, and for
    /// `clear()`.
    public let previousQuantity: Int
    /// Whether the cart changed: false when it already was as asked (a line set to the
    /// quantity it had, a line it lacks set to 0, an empty cart cleared), and its version stayed.
    public let changed: Bool

    /// Creates an update record; `changed` defaults to whether the line's quantity changed.
    public init(cartID: String, version: Int, sku: String?, quantity: Int, previousQuantity: Int, changed: Bool? = nil) {
        self.cartID = cartID
        self.version = version
        self.sku = sku
        self.quantity = quantity
        self.previousQuantity = previousQuantity
        self.changed = changed ?? (quantity != previousQuantity)
    }

    /// How many units the change took out of the line: for `remove`, fewer than asked when the
    /// line held fewer. 0 when the line grew or stayed.
    public var removed: Int { max(0, previousQuantity - quantity) }
}
