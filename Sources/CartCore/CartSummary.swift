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
    /// The sum of the lines' quantities; `nil` when a line holds a quantity the service cannot
    /// use (`problem` names it), so that the cart's units cannot be counted.
    public var totalItems: Int?
    /// The cart's version.
    public var version: Int
    /// When the cart last changed.
    public var updatedAt: Date
    /// Why the cart's units cannot be counted, in words: a line's quantity another client
    /// stored outside `StoredRange.lineQuantity` (`a line's quantity is -1, below 1`), which
    /// setting or deleting that line, or clearing the cart, mends. `nil` for a cart whose every
    /// line is usable.
    public var problem: String?

    /// Creates a summary.
    public init(id: String, lineCount: Int, totalItems: Int?, version: Int, updatedAt: Date, problem: String? = nil) {
        self.id = id
        self.lineCount = lineCount
        self.totalItems = totalItems
        self.version = version
        self.updatedAt = updatedAt
        self.problem = problem
    }

    /// The summary of a stored cart from what a backend reads of its lines as stored: how many
    /// there are, their smallest and largest quantity (`nil` for a cart without lines), and the
    /// sum of their quantities, which `sum` reads only when both lie in
    /// `StoredRange.lineQuantity` (quantities out of range may add up past any integer). A cart
    /// with a quantity out of range has its units unknown and says why, so that a list of carts
    /// still shows it.
    ///
    /// - Throws: what `sum` throws.
    public init(
        id: String, version: Int, updatedAt: Date, lineCount: Int, smallestQuantity: Int?, largestQuantity: Int?,
        sum: () throws -> Int
    ) rethrows {
        let range = StoredRange.lineQuantity
        let outside = [smallestQuantity, largestQuantity].compactMap { $0.map(Int64.init) }.first { !range.contains($0) }
        self.init(
            id: id, lineCount: lineCount, totalItems: outside == nil ? try sum() : nil, version: version,
            updatedAt: updatedAt, problem: outside.map { "a line's quantity \(StoredRange.outside($0, range))" })
    }
}
