/// `{"number","cart","placedAt","currency","totalItems","total","idempotencyKey"?,"lines":[OrderLine…]}`,
/// `placedAt` ISO 8601 in UTC. Decoding refuses lines in another currency, and totals that are
/// not the sums of the lines.
extension Order: Codable {
    private enum CodingKeys: String, CodingKey {
        case number, cart, placedAt, currency, totalItems, total, idempotencyKey, lines
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let currency = try container.decode(Currency.self, forKey: .currency)
        let lines = try container.decode([OrderLine].self, forKey: .lines)
        guard lines.allSatisfy({ $0.unitPrice.currency == currency }) else {
            throw DecodingError.dataCorruptedError(
                forKey: .lines, in: container, debugDescription: "a line is not in the order's currency")
        }
        let totalItems = try container.decode(Int.self, forKey: .totalItems)
        let total = try container.decodeAmount(currency, forKey: .total)
        // A Cart of the same lines sums them, refusing sums that do not fit.
        let sums = try? Cart(
            id: "", version: 0,
            lines: lines.map { try CartLine(sku: $0.sku, name: $0.name, quantity: $0.quantity, unitPrice: $0.unitPrice) },
            currency: currency)
        guard let sums, sums.totalItems == totalItems, sums.subtotal == total else {
            throw DecodingError.dataCorruptedError(
                forKey: .total, in: container, debugDescription: "the totals are not the sums of the lines")
        }
        self.init(
            number: try container.decode(OrderNumber.self, forKey: .number),
            cartID: try container.decode(String.self, forKey: .cart),
            placedAt: try container.decodeInstant(forKey: .placedAt), currency: currency, totalItems: totalItems,
            total: total, idempotencyKey: try container.decodeIfPresent(String.self, forKey: .idempotencyKey),
            lines: lines)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(number, forKey: .number)
        try container.encode(cartID, forKey: .cart)
        try container.encodeInstant(placedAt, forKey: .placedAt)
        try container.encode(currency, forKey: .currency)
        try container.encode(totalItems, forKey: .totalItems)
        try container.encodeAmount(total, forKey: .total)
        try container.encodeIfPresent(idempotencyKey, forKey: .idempotencyKey)
        try container.encode(lines, forKey: .lines)
    }
}

/// An order number is written as the bare integer.
extension OrderNumber: Codable {
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(Int64.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// `{"orders":[Order…],"next":NUMBER_OR_NULL}`.
extension OrderPage: Codable {
    private enum CodingKeys: String, CodingKey {
        case orders, next
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            orders: try container.decode([Order].self, forKey: .orders),
            next: try container.decodeIfPresent(OrderNumber.self, forKey: .next))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(orders, forKey: .orders)
        try container.encode(next, forKey: .next)
    }
}


/// `{"key","orders","items","revenue","currency"}`, `revenue` a decimal string.
extension OrderStatsRow: Codable {
    private enum CodingKeys: String, CodingKey {
        case key, orders, items, revenue, currency
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            key: try container.decode(String.self, forKey: .key), orders: try container.decode(Int.self, forKey: .orders),
            items: try container.decode(Int.self, forKey: .items),
            revenue: try container.decodeAmount(try container.decode(Currency.self, forKey: .currency), forKey: .revenue))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(key, forKey: .key)
        try container.encode(orders, forKey: .orders)
        try container.encode(items, forKey: .items)
        try container.encodeAmount(revenue, forKey: .revenue)
        try container.encode(revenue.currency, forKey: .currency)
    }
}
