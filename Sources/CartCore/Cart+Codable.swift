/// `{"cart","version","currency","items":[CartLine…],"totalItems","subtotal"}`. Decoding
/// recomputes the totals and refuses a text whose totals or line currencies differ, or whose
/// version is negative.
extension Cart: Codable {
    private enum CodingKeys: String, CodingKey {
        case cart, version, currency, items, totalItems, subtotal
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let currency = try container.decode(Currency.self, forKey: .currency)
        let lines = try container.decode([CartLine].self, forKey: .items)
        guard lines.allSatisfy({ $0.unitPrice.currency == currency }) else {
            throw DecodingError.dataCorruptedError(
                forKey: .items, in: container, debugDescription: "a line is not in the cart's currency")
        }
        let version = try container.decode(Int.self, forKey: .version)
        guard version >= 0 else {
            throw DecodingError.dataCorruptedError(forKey: .version, in: container, debugDescription: "version \(version) is negative")
        }
        do {
            try self.init(id: try container.decode(String.self, forKey: .cart), version: version, lines: lines, currency: currency)
        } catch let error as CartError {
            throw DecodingError.dataCorruptedError(forKey: .items, in: container, debugDescription: error.description)
        }
        guard try container.decode(Int.self, forKey: .totalItems) == totalItems,
            try container.decodeAmount(currency, forKey: .subtotal) == subtotal
        else {
            throw DecodingError.dataCorruptedError(
                forKey: .subtotal, in: container, debugDescription: "the totals do not match the lines")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .cart)
        try container.encode(version, forKey: .version)
        try container.encode(currency, forKey: .currency)
        try container.encode(lines, forKey: .items)
        try container.encode(totalItems, forKey: .totalItems)
        try container.encodeAmount(subtotal, forKey: .subtotal)
    }
}
