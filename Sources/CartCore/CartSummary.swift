#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

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
