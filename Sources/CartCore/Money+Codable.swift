/// `{"amount":"12.99","currency":"USD"}`: the amount as an exact decimal string.
extension Money: Codable {
    private enum CodingKeys: String, CodingKey {
        case amount, currency
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self = try container.decodeAmount(try container.decode(Currency.self, forKey: .currency), forKey: .amount)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeAmount(self, forKey: .amount)
        try container.encode(currency, forKey: .currency)
    }
}
