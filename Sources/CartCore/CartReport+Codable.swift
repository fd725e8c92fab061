/// The cart's own shape (`Cart`'s `{"cart","version","currency","items","totalItems",
/// "subtotal"}`) with `"problems":[CART_PROBLEM…]` beside its fields, an empty array when the
/// cart can be checked out as it is: the cart JSON every front end writes.
extension CartReport: Codable {
    private enum CodingKeys: String, CodingKey {
        case problems
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(cart: try Cart(from: decoder), problems: try container.decode([CartProblem].self, forKey: .problems))
    }

    public func encode(to encoder: any Encoder) throws {
        try cart.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(problems, forKey: .problems)
    }
}
