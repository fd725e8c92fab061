import CartCore

/// A merge as the API shows it: the `MergeResult` JSON shape with the target cart as the API
/// shows every cart, its problems included.
struct MergeView: Encodable {
    /// What the merge did, with the target cart as the merge left it.
    let result: MergeResult

    private enum CodingKeys: String, CodingKey {
        case cart, mergedLines, adjustments
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(result.report, forKey: .cart)
        try container.encode(result.mergedLines, forKey: .mergedLines)
        try container.encode(result.adjustments, forKey: .adjustments)
    }
}
