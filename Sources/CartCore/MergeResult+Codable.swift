/// `{"sku","requested","kept","reason","limit"}`, `reason` the code of the cart problem the
/// line would have had (`line_quantity_cap`, `insufficient_stock`, `line_count_cap`,
/// `inactive_product`), and `limit` the cap or stock that clamped the line (`null` for
/// `inactive_product`).
extension MergeResult.Adjustment: Codable {
    private enum CodingKeys: String, CodingKey {
        case sku, requested, kept, reason, limit
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let limit = try container.decodeIfPresent(Int.self, forKey: .limit)
        let name = try container.decode(String.self, forKey: .reason)
        let reason: MergeResult.Reason
        switch (CartProblem.Code(rawValue: name), limit) {
        case (.lineQuantityCap, let limit?): reason = .lineCap(limit)
        case (.insufficientStock, let limit?): reason = .stock(limit)
        case (.lineCountCap, let limit?): reason = .lineCountCap(limit)
        case (.inactiveProduct, nil): reason = .inactiveProduct
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .reason, in: container, debugDescription: "'\(name.displayable)' with this limit is not a merge reason")
        }
        self.init(
            sku: try container.decode(String.self, forKey: .sku), requested: try container.decode(Int.self, forKey: .requested),
            kept: try container.decode(Int.self, forKey: .kept), reason: reason)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sku, forKey: .sku)
        try container.encode(requested, forKey: .requested)
        try container.encode(kept, forKey: .kept)
        let (code, limit): (CartProblem.Code, Int?) =
            switch reason {
            case .lineCap(let cap): (.lineQuantityCap, cap)
            case .stock(let stock): (.insufficientStock, stock)
            case .lineCountCap(let cap): (.lineCountCap, cap)
            case .inactiveProduct: (.inactiveProduct, nil)
            }
        try container.encode(code.rawValue, forKey: .reason)
        try container.encode(limit, forKey: .limit)
    }
}
