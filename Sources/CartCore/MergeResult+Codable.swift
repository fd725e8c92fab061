/// `{"sku","requested","kept","reason","limit"}`, `reason` one of `lineCap`, `stock`,
/// `lineCountCap`, `inactive`, and `limit` the cap or stock that clamped the line (`null`
/// for `inactive`).
extension MergeResult.Adjustment: Codable {
    private enum CodingKeys: String, CodingKey {
        case sku, requested, kept, reason, limit
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let limit = try container.decodeIfPresent(Int.self, forKey: .limit)
        let name = try container.decode(String.self, forKey: .reason)
        let reason: MergeResult.Reason
        switch (name, limit) {
        case ("lineCap", let limit?): reason = .lineCap(limit)
        case ("stock", let limit?): reason = .stock(limit)
        case ("lineCountCap", let limit?): reason = .lineCountCap(limit)
        case ("inactive", nil): reason = .inactiveProduct
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
        let (name, limit): (String, Int?) =
            switch reason {
            case .lineCap(let cap): ("lineCap", cap)
            case .stock(let stock): ("stock", stock)
            case .lineCountCap(let cap): ("lineCountCap", cap)
            case .inactiveProduct: ("inactive", nil)
            }
        try container.encode(name, forKey: .reason)
        try container.encode(limit, forKey: .limit)
    }
}
