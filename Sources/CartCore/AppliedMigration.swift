#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A migration recorded in a store's own table of applied migrations.
public struct AppliedMigration: Hashable, Sendable {
    /// The file name without `.sql`, such as `0001_initial_schema`.
    public let name: String
    /// The SHA-256 of the migration's SQL, as 64 hex digits.
    public let checksum: String
    /// When it was applied.
    public let appliedAt: Date

    /// Creates a record.
    public init(name: String, checksum: String, appliedAt: Date) {
        self.name = name
        self.checksum = checksum
        self.appliedAt = appliedAt
    }
}
