/// The JSON shape cart lines and order lines share:
/// `{"sku","name","quantity","unitPrice","lineTotal","currency"}`, amounts as decimal strings.
enum LineCoding {
    enum Keys: String, CodingKey {
        case sku, name, quantity, unitPrice, lineTotal, currency
    }

    /// The fields of a line as decoded, the amounts exact in the line's currency, checked: a
    /// quantity of at least 1 and a line total that is `unitPrice × quantity`.
    struct Fields {
        let sku: String
        let name: String
        let quantity: Int
        let unitPrice: Money
        let lineTotal: Money
    }

    static func decode(from decoder: any Decoder) throws -> Fields {
        let container = try decoder.container(keyedBy: Keys.self)
        let currency = try container.decode(Currency.self, forKey: .currency)
        let quantity = try container.decode(Int.self, forKey: .quantity)
        guard quantity >= 1 else {
            throw DecodingError.dataCorruptedError(
                forKey: .quantity, in: container, debugDescription: "a line holds at least 1 unit; got \(quantity)")
        }
        let unitPrice = try container.decodeAmount(currency, forKey: .unitPrice)
        let lineTotal = try container.decodeAmount(currency, forKey: .lineTotal)
        guard (try? unitPrice.multiplied(by: quantity)) == lineTotal else {
            throw DecodingError.dataCorruptedError(
                forKey: .lineTotal, in: container, debugDescription: "lineTotal is not unitPrice × quantity")
        }
        return Fields(
            sku: try container.decode(String.self, forKey: .sku), name: try container.decode(String.self, forKey: .name),
            quantity: quantity, unitPrice: unitPrice, lineTotal: lineTotal)
    }

    static func encode(
        sku: String, name: String, quantity: Int, unitPrice: Money, lineTotal: Money, to encoder: any Encoder
    ) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(sku, forKey: .sku)
        try container.encode(name, forKey: .name)
        try container.encode(quantity, forKey: .quantity)
        try container.encodeAmount(unitPrice, forKey: .unitPrice)
        try container.encodeAmount(lineTotal, forKey: .lineTotal)
        try container.encode(unitPrice.currency, forKey: .currency)
    }
}
