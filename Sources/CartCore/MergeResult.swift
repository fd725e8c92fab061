/// What `CartService.merge(from:into:)` did.
public struct MergeResult: Hashable, Sendable, Codable {
    /// Why a merged line holds less than the two carts held together.
    public enum Reason: Hashable, Sendable {
        /// Clamped to the per-line cap.
        case lineCap(Int)
        /// Clamped to the units in stock.
        case stock(Int)
        /// Not merged: the target cart already has the maximum number of lines.
        case lineCountCap(Int)
        /// Not merged: the product is no longer for sale.
        case inactiveProduct
    }

    /// A line that could not be merged in full.
    public struct Adjustment: Hashable, Sendable {
        /// The SKU.
        public let sku: String
        /// The quantity the two carts held together.
        public let requested: Int
        /// The quantity the target line holds now.
        public let kept: Int
        /// Why.
        public let reason: Reason
    }

    /// The target cart after the merge.
    public let cart: Cart
    /// How many source lines were merged in, in full or in part.
    public let mergedLines: Int
    /// Every line that was clamped or left out, and why; nothing is dropped silently.
    public let adjustments: [Adjustment]
}
