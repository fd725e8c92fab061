/// `{"sku","name","quantity","unitPrice","lineTotal","currency"}`, the prices as they were at
/// checkout. Decoding refuses a text whose `lineTotal` is not `unitPrice × quantity`, or whose
/// quantity is below 1.
extension OrderLine: Codable {
    private enum CodingKeys: String, CodingKey {
        case sku, name, quantity, unitPrice, lineTotal, currency
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let currency = try container.decode(Currency.self, forKey: .currency)
        let unitPrice = try container.decodeAmount(currency, forKey: .unitPrice)
        let quantity = try container.decode(Int.self, forKey: .quantity)
        guard quantity >= 1 else {
            throw DecodingError.dataCorruptedError(
                forKey: .quantity, in: container, debugDescription: "quantity \(quantity) is below 1")
        }
        let lineTotal = try container.decodeAmount(currency, forKey: .lineTotal)
        guard (try? unitPrice.multiplied(by: quantity)) == lineTotal else {
            throw DecodingError.dataCorruptedError(
                forKey: .lineTotal, in: container, debugDescription: "lineTotal is not unitPrice × quantity")
        }
        self.init(
            sku: try container.decode(String.self, forKey: .sku), name: try container.decode(String.self, forKey: .name),
            unitPrice: unitPrice, quantity: quantity, lineTotal: lineTotal)
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
