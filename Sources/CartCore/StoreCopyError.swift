/// Why `StoreCopy.copy(from:to:progress:)` refused to copy, or stopped; the target keeps
/// nothing of the copy.
public enum StoreCopyError: CategorizedError, Hashable, Sendable, CustomStringConvertible {
    /// The target already holds products, carts or orders (how many of each).
    case targetNotEmpty(StoreCounts)
    /// The target would not store a product of the source: another client stored one with
    /// its SKU during the copy.
    case productNotCopied(String)

    public var category: ErrorCategory { .conflict }

    public var description: String {
        switch self {
        case .targetNotEmpty(let counts):
            "The target store is not empty (it holds \(counts.products) products, \(counts.carts) carts and "
                + "\(counts.orders) orders); a store is copied only into an empty one."
        case .productNotCopied(let sku):
            "Product '\(sku.displayable)' could not be copied: the target stored one with its SKU meanwhile."
        }
    }
}
