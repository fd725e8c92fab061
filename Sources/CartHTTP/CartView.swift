import CartCore

/// A cart as the API shows it: the `Cart` JSON shape with `"problems"` beside its fields, the
/// core's list of what would refuse its checkout now (empty when it can be checked out), as
/// `CartReport` encodes it.
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

    /// The cart `id` and its problems, read in one unit by `CartService.cartReport(_:)`.
    ///
    /// - Throws: `CartError.invalidCartID`, `.amountOverflow`, or a storage error.
    static func read(_ id: String, from service: CartService) throws -> CartView {
        let report = try service.cartReport(id)
        return CartView(cart: report.cart, problems: report.problems)
    }
}
