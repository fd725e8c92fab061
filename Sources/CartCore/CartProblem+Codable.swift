/// `{"sku","code","message"}`: `sku` is `null` for a problem of the whole cart, `code` one of
/// `inactive_product`, `unknown_product`, `insufficient_stock`, `line_quantity_cap`,
/// `line_count_cap`, `damaged_line`, `damaged_product`; `damaged_line` adds `quantity`, the
/// quantity the store holds.
extension CartProblem: Codable {
    private enum CodingKeys: String, CodingKey {
        case sku, code, message, quantity
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .code)
        guard let code = Code(rawValue: name) else {
            throw DecodingError.dataCorruptedError(
                forKey: .code, in: container, debugDescription: "'\(name.displayable)' is not a cart problem code")
        }
        self.init(
            sku: try container.decodeIfPresent(String.self, forKey: .sku), code: code,
            message: try container.decode(String.self, forKey: .message),
            quantity: try container.decodeIfPresent(Int.self, forKey: .quantity))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sku, forKey: .sku)
        try container.encode(code.rawValue, forKey: .code)
        try container.encode(message, forKey: .message)
        try container.encodeIfPresent(quantity, forKey: .quantity)
    }
}
