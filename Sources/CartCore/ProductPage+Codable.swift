/// `{"products":[PRODUCT…],"next":"sku"}`; `next` is `null` on the last page. This is what
/// `cart products --json` writes and `cart products import` reads back.
extension ProductPage: Codable {
    private enum CodingKeys: String, CodingKey {
        case products, next
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            products: try container.decode([Product].self, forKey: .products),
            next: try container.decodeIfPresent(String.self, forKey: .next))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(products, forKey: .products)
        try container.encode(next, forKey: .next)
    }
}
