/// `{"cart","version","lines","totalItems","updatedAt"}`, `updatedAt` ISO 8601 in UTC;
/// `totalItems` is `null` and `"problem"` says why for a cart whose units cannot be counted
/// (`CartSummary.problem`), and `"problem"` is left out otherwise.
extension CartSummary: Codable {
    private enum CodingKeys: String, CodingKey {
        case cart, version, lines, totalItems, updatedAt, problem
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .cart), lineCount: try container.decode(Int.self, forKey: .lines),
            totalItems: try container.decode(Int?.self, forKey: .totalItems),
            version: try container.decode(Int.self, forKey: .version), updatedAt: try container.decodeInstant(forKey: .updatedAt),
            problem: try container.decodeIfPresent(String.self, forKey: .problem))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .cart)
        try container.encode(version, forKey: .version)
        try container.encode(lineCount, forKey: .lines)
        try container.encode(totalItems, forKey: .totalItems)
        try container.encodeInstant(updatedAt, forKey: .updatedAt)
        try container.encodeIfPresent(problem, forKey: .problem)
    }
}

/// `{"cart","version","sku","quantity","previousQuantity"}`; `sku` is `null` for a cleared
/// cart.
extension CartUpdate: Codable {
    private enum CodingKeys: String, CodingKey {
        case cart, version, sku, quantity, previousQuantity
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            cartID: try container.decode(String.self, forKey: .cart), version: try container.decode(Int.self, forKey: .version),
            sku: try container.decodeIfPresent(String.self, forKey: .sku), quantity: try container.decode(Int.self, forKey: .quantity),
            previousQuantity: try container.decode(Int.self, forKey: .previousQuantity))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(cartID, forKey: .cart)
        try container.encode(version, forKey: .version)
        try container.encode(sku, forKey: .sku)
        try container.encode(quantity, forKey: .quantity)
        try container.encode(previousQuantity, forKey: .previousQuantity)
    }
}

