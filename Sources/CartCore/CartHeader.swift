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
