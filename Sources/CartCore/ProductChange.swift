/// What `CartStorageWriter.upsertProduct(_:)` did with a product.
public enum ProductChange: Hashable, Sendable {
    /// No product had its SKU: it was inserted.
    case created
    /// A different product had its SKU: it was replaced.
    case updated
    /// The same product was already stored: nothing was written.
    case unchanged
}
