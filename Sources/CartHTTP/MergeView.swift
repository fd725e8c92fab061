import CartCore

/// A merge as the API shows it: the `MergeResult` JSON shape with the target cart as the API
/// shows every cart, its problems included.
struct MergeView: Encodable {
    /// How many source lines were merged in.
    let mergedLines: Int
    /// The lines that were clamped or left out.
    let adjustments: [MergeResult.Adjustment]
    /// The target cart, read after the merge.
    let cart: CartReport

    /// What `result` did, with the target cart as `cart`.
    init(result: MergeResult, cart: CartReport) {
        mergedLines = result.mergedLines
        adjustments = result.adjustments
        self.cart = cart
    }

    /// A merge that moved nothing into `cart`.
    init(nothingMergedInto cart: CartReport) {
        mergedLines = 0
        adjustments = []
        self.cart = cart
    }

    private enum CodingKeys: String, CodingKey {
        case cart, mergedLines, adjustments
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(cart, forKey: .cart)
        try container.encode(mergedLines, forKey: .mergedLines)
        try container.encode(adjustments, forKey: .adjustments)
    }
}
