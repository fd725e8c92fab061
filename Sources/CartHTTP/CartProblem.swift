import CartCore

/// Something that would refuse a cart's checkout, found before it is tried:
/// `{"sku","code","message"}`, with the code and message of the `CartError` checkout would throw
/// for that line.
struct CartProblem: Encodable, Equatable {
    /// The line's SKU.
    let sku: String
    /// The refusal.
    let error: CartError

    private enum CodingKeys: String, CodingKey {
        case sku, code, message
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sku, forKey: .sku)
        try container.encode(error.code, forKey: .code)
        try container.encode(error.description, forKey: .message)
    }

    /// The problems of a line of `quantity` units of `product` under `settings`, checked as
    /// checkout checks them: an inactive product, or else the per-line cap and the stock.
    static func problems(ofLine quantity: Int, _ product: Product, settings: StoreSettings) -> [CartProblem] {
        guard product.isActive else { return [CartProblem(sku: product.sku, error: .inactiveProduct(product.sku))] }
        var problems: [CartProblem] = []
        if quantity > settings.maxLineQuantity {
            problems.append(
                CartProblem(
                    sku: product.sku,
                    error: .lineQuantityCapExceeded(sku: product.sku, requested: quantity, cap: settings.maxLineQuantity)))
        }
        if let stock = product.stock, quantity > stock {
            problems.append(
                CartProblem(
                    sku: product.sku, error: .insufficientStock(sku: product.sku, requested: quantity, available: stock)))
        }
        return problems
    }
}
