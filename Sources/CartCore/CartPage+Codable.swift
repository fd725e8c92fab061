/// `{"carts":[CART_SUMMARY…],"next":"id"}`; `next` is `null` on the last page.
extension CartPage: Codable {
    private enum CodingKeys: String, CodingKey {
        case carts, next
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            carts: try container.decode([CartSummary].self, forKey: .carts),
            next: try container.decodeIfPresent(String.self, forKey: .next))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(carts, forKey: .carts)
        try container.encode(next, forKey: .next)
    }
}
