/// `{"sku","name","price","currency","active","stock"}`: the price a decimal string in
/// `currency`, `stock` an integer or `null` when untracked.
extension Product: Codable {
    private enum CodingKeys: String, CodingKey {
        case sku, name, price, currency, active, stock
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let currency = try container.decode(Currency.self, forKey: .currency)
        self.init(
            sku: try container.decode(String.self, forKey: .sku), name: try container.decode(String.self, forKey: .name),
            price: try container.decodeAmount(currency, forKey: .price),
            isActive: try container.decode(Bool.self, forKey: .active),
            stock: try container.decodeIfPresent(Int.self, forKey: .stock))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sku, forKey: .sku)
        try container.encode(name, forKey: .name)
        try container.encodeAmount(price, forKey: .price)
        try container.encode(price.currency, forKey: .currency)
        try container.encode(isActive, forKey: .active)
        try container.encode(stock, forKey: .stock)
    }
}
