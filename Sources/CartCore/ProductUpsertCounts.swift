/// What `CartStorageWriter.upsertProducts(_:)` did with a list of products: how many it
/// created and how many it updated. The rest were stored already, exactly as given.
public struct ProductUpsertCounts: Hashable, Sendable {
    /// Products whose SKU no product had: inserted.
    public var created: Int
    /// Products that replaced a different product with their SKU.
    public var updated: Int

    /// Creates counts, by default of nothing done.
    public init(created: Int = 0, updated: Int = 0) {
        self.created = created
        self.updated = updated
    }

    /// Counts what `upsertProduct(_:)` did with one product.
    public mutating func count(_ change: ProductChange) {
        switch change {
        case .created: created += 1
        case .updated: updated += 1
        case .unchanged: break
        }
    }
}
