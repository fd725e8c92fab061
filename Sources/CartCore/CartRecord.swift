#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A cart's bookkeeping row as a backend stores it: its version and when it last changed.
public struct CartHeader: Hashable, Sendable {
    /// The cart ID.
    public var id: String
    /// Increases by one on every change.
    public var version: Int
    /// When the cart last changed.
    public var updatedAt: Date

    /// Creates a header.
    public init(id: String, version: Int, updatedAt: Date) {
        self.id = id
        self.version = version
        self.updatedAt = updatedAt
    }
}

/// A stored cart line joined with its product, as a backend returns it.
public struct StoredCartLine: Hashable, Sendable {
    /// How many units the line holds.
    public var quantity: Int
    /// The product as it is now.
    public var product: Product

    /// Creates a stored line.
    public init(quantity: Int, product: Product) {
        self.quantity = quantity
        self.product = product
    }
}

/// One row of `listCarts()`.
public struct CartSummary: Hashable, Sendable {
    /// The cart ID.
    public var id: String
    /// The number of distinct lines.
    public var lineCount: Int
    /// The sum of the lines' quantities.
    public var totalItems: Int
    /// The cart's version.
    public var version: Int
    /// When the cart last changed.
    public var updatedAt: Date

    /// Creates a summary.
    public init(id: String, lineCount: Int, totalItems: Int, version: Int, updatedAt: Date) {
        self.id = id
        self.lineCount = lineCount
        self.totalItems = totalItems
        self.version = version
        self.updatedAt = updatedAt
    }
}

/// What a cart mutation did: the cart's new version and the touched line's new quantity.
public struct CartUpdate: Hashable, Sendable {
    /// The cart ID.
    public let cartID: String
    /// The cart's version after the change.
    public let version: Int
    /// The SKU of the line changed, or `nil` for `clear()`.
    public let sku: String?
    /// The line's quantity after the change; 0 when the line is gone.
    public let quantity: Int

    /// Creates an update record.
    public init(cartID: String, version: Int, sku: String?, quantity: Int) {
        self.cartID = cartID
        self.version = version
        self.sku = sku
        self.quantity = quantity
    }
}
