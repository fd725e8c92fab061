#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A cart's own record as a backend stores it: its version, when it last changed, and the
/// summary of its lines that the line rules read without reading the lines (how many there
/// are, and the position the next new line takes). `CartService` keeps the summary in step
/// with every line it writes.
public struct CartHeader: Hashable, Sendable {
    /// The cart ID.
    public var id: String
    /// Increases by one on every change.
    public var version: Int
    /// When the cart last changed.
    public var updatedAt: Date
    /// How many lines the cart has.
    public var lineCount: Int
    /// The position the cart's next new line takes: above every line's position, so that
    /// lines keep the order in which they were first added.
    public var nextLinePosition: Int

    /// Creates a header.
    public init(id: String, version: Int, updatedAt: Date, lineCount: Int, nextLinePosition: Int) {
        self.id = id
        self.version = version
        self.updatedAt = updatedAt
        self.lineCount = lineCount
        self.nextLinePosition = nextLinePosition
    }
}
