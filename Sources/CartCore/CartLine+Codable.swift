/// `{"sku","name","quantity","unitPrice","lineTotal","currency"}`. Decoding recomputes the line
/// total and refuses a text whose `lineTotal` differs, or whose quantity is below 1.
extension CartLine: Codable {
    private enum CodingKeys: String, CodingKey {
        case sku, name, quantity, unitPrice, lineTotal, currency
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let currency = try container.decode(Currency.self, forKey: .currency)
        let unitPrice = try container.decodeAmount(currency, forKey: .unitPrice)
        let sku = try container.decode(String.self, forKey: .sku)
        let name = try container.decode(String.self, forKey: .name)
        try self.init(
            sku: sku, name: name,
            quantity: container.decodeChecked(Int.self, forKey: .quantity) { quantity throws(CartError) in
                guard quantity >= 1 else { throw .invalidQuantity(given: quantity, range: 1...Int.max) }
                _ = try unitPrice.multiplied(by: quantity)
                return quantity
            },
            unitPrice: unitPrice)
        guard try container.decodeAmount(currency, forKey: .lineTotal) == lineTotal else {
            throw DecodingError.dataCorruptedError(
                forKey: .lineTotal, in: container, debugDescription: "lineTotal is not unitPrice × quantity")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sku, forKey: .sku)
        try container.encode(name, forKey: .name)
        try container.encode(quantity, forKey: .quantity)
        try container.encodeAmount(unitPrice, forKey: .unitPrice)
        try container.encodeAmount(lineTotal, forKey: .lineTotal)
        try container.encode(unitPrice.currency, forKey: .currency)
    }
}
