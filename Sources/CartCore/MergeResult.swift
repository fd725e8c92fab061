/// What `CartService.merge(from:into:)` did.
public struct MergeResult: Hashable, Sendable, Codable {
    /// Why a merged line holds less than the two carts held together.
    public enum Reason: Hashable, Sendable, CustomStringConvertible {
        /// Clamped to the per-line cap.
        case lineCap(Int)
        /// Clamped to the units in stock.
        case stock(Int)
        /// Not merged: the target cart already has the maximum number of lines.
        case lineCountCap(Int)
        /// Not merged: the product is no longer for sale.
        case inactiveProduct

        /// `only 3 in stock`, `at most 99 per line`: why, as a phrase that follows a colon.
        public var description: String {
            switch self {
            case .lineCap(let cap): "at most \(cap) per line"
            case .stock(let stock): "only \(stock) in stock"
            case .lineCountCap(let cap): "the cart cannot take another line: a cart holds at most \(cap) line\(cap == 1 ? "" : "s")"
            case .inactiveProduct: "the product is not for sale"
            }
        }
    }

    /// A line that could not be merged in full.
    public struct Adjustment: Hashable, Sendable, CustomStringConvertible {
        /// The SKU.
        public let sku: String
        /// The quantity the two carts held together.
        public let requested: Int
        /// The quantity the target line holds now.
        public let kept: Int
        /// Why.
        public let reason: Reason

        /// `kiwi: kept 3 of 4: only 3 in stock`.
        public var description: String { "\(sku.displayable): kept \(kept) of \(requested): \(reason)" }
    }

    /// The target cart after the merge, with the problems that stop its checkout now (lines
    /// it held before the merge may have some).
    public let report: CartReport
    /// How many source lines were merged in, in full or in part.
    public let mergedLines: Int
    /// Every line that was clamped or left out, and why; nothing is dropped silently.
    public let adjustments: [Adjustment]

    /// The target cart after the merge.
    public var cart: Cart { report.cart }

    /// The report is the cart's JSON with its problems (`CartReport`), under `cart`.
    private enum CodingKeys: String, CodingKey {
        case report = "cart"
        case mergedLines, adjustments
    }
}
