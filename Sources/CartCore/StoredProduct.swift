/// A product as its row holds it (`CartStorageReader.productAsStored(sku:)`), so that the
/// service can replace or delete values another client stored out of range.
public struct StoredProduct: Hashable, Sendable {
    /// The product, its price and stock as stored, in range or not; `isActive` is whether the
    /// active flag is 1.
    public var product: Product
    /// The active flag as stored: 1 for sale, 0 not, anything else outside
    /// `StoredRange.activeFlag` (a store without such a column holds only the two).
    public var activeFlag: Int64

    /// Creates a stored product; without `activeFlag`, the flag `product.isActive` gives.
    public init(product: Product, activeFlag: Int64? = nil) {
        self.product = product
        self.activeFlag = activeFlag ?? (product.isActive ? 1 : 0)
    }
}
