/// A cart with every problem that stops its checkout now: what a shop shows beside the cart
/// (`cart show`, the cart page), read in one snapshot by `CartService.cartReport(_:)`.
public struct CartReport: Hashable, Sendable {
    /// The cart, its lines at current prices.
    public let cart: Cart
    /// Every problem, in the order of the lines, then those of the whole cart; empty when the
    /// lines can be checked out as they are.
    public let problems: [CartProblem]

    /// Creates a report.
    public init(cart: Cart, problems: [CartProblem]) {
        self.cart = cart
        self.problems = problems
    }

    /// Whether a checkout would go through now: the cart has lines and no problem.
    public var canCheckOut: Bool { !cart.isEmpty && problems.isEmpty }

    /// The problems of the line for `sku`.
    public func problems(of sku: String) -> [CartProblem] {
        problems.filter { $0.sku == sku }
    }
}
