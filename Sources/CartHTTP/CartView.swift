import CartCore

/// A cart as the API shows it: the `Cart` JSON shape with `"problems"` beside its fields, the
/// list of what would refuse its checkout now (empty when it can be checked out).
struct CartView: Encodable, Equatable {
    /// The cart.
    let cart: Cart
    /// What would refuse its checkout.
    let problems: [CartProblem]

    private enum CodingKeys: String, CodingKey {
        case problems
    }

    func encode(to encoder: any Encoder) throws {
        try cart.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(problems, forKey: .problems)
    }

    /// The cart `id` and its problems, read in one unit. An ID the core would refuse is
    /// passed to `CartService.cart(_:)` first, which throws its reason.
    ///
    /// - Throws: `CartError.invalidCartID`, `.amountOverflow`, or a storage error.
    static func read(_ id: String, from service: CartService) throws -> CartView {
        if !isPlainCartID(id) { _ = try service.cart(id) }
        return try service.repository.read { storage in
            let settings = try storage.settings()
            guard let header = try storage.cartHeader(id: id) else {
                return CartView(cart: try Cart(id: id, version: 0, lines: [], currency: settings.currency), problems: [])
            }
            var lines: [CartLine] = []
            var problems: [CartProblem] = []
            for stored in try storage.cartLines(cartID: id) {
                let product = stored.product
                lines.append(
                    try CartLine(sku: product.sku, name: product.name, quantity: stored.quantity, unitPrice: product.price))
                problems += CartProblem.problems(ofLine: stored.quantity, product, settings: settings)
            }
            return CartView(
                cart: try Cart(id: id, version: header.version, lines: lines, currency: settings.currency),
                problems: problems)
        }
    }

    /// Whether `id` is 1 to 128 printable ASCII characters, not starting or ending with a
    /// space: a cart ID the core takes as it is.
    static func isPlainCartID(_ id: String) -> Bool {
        let bytes = id.utf8
        guard (1...128).contains(bytes.count), bytes.first != 0x20, bytes.last != 0x20 else { return false }
        return bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }
}
