/// Which products to list, and how many: a filter plus a keyset page in SKU order.
public struct ProductQuery: Hashable, Sendable {
    /// Whether products not for sale are listed too.
    public var includeInactive: Bool
    /// Only products whose SKU or name contains this text, in any case; `nil` or empty for all.
    public var text: String?
    /// The keyset cursor: only products whose SKU sorts after this one. Pass the `next` of one
    /// page to get the following one.
    public var after: String?
    /// At most this many products, 1...10000; `nil` for all.
    public var limit: Int?

    /// Creates a query; the defaults list every product for sale.
    public init(includeInactive: Bool = false, text: String? = nil, after: String? = nil, limit: Int? = nil) {
        self.includeInactive = includeInactive
        self.text = text
        self.after = after
        self.limit = limit
    }

    /// Whether `product` passes the filters (not the cursor or the limit).
    public func includes(_ product: Product) -> Bool {
        guard includeInactive || product.isActive else { return false }
        guard let text, !text.isEmpty else { return true }
        let needle = text.lowercased()
        return product.sku.lowercased().contains(needle) || product.name.lowercased().contains(needle)
    }
}
