/// A snapshot of one cart: its lines in the order they were first added, and its totals.
public struct Cart: Hashable, Sendable {
    /// The caller-chosen cart ID, such as a customer ID or an anonymous token.
    public let id: String
    /// Increases on every change; 0 for a cart that was never written.
    public let version: Int
    /// The lines, in the order their products were first added.
    public let lines: [CartLine]
    /// The store currency.
    public let currency: Currency
    /// The sum of the lines' quantities (the tutorial's `totalItems`).
    public let totalItems: Int
    /// The sum of the line totals, exact (the tutorial's `totalPrice`, without `Double`).
    public let subtotal: Money

    /// Creates a snapshot, computing its totals.
    ///
    /// - Throws: `CartError.amountOverflow` if the subtotal does not fit, or
    ///   `CartError.currencyMismatch` if a line's amounts are in another currency.
    public init(id: String, version: Int, lines: [CartLine], currency: Currency) throws(CartError) {
        self.id = id
        self.version = version
        self.lines = lines
        self.currency = currency
        var items = 0
        var subtotal = Money.zero(currency)
        for line in lines {
            let (sum, overflow) = items.addingReportingOverflow(line.quantity)
            guard !overflow else { throw .amountOverflow }
            items = sum
            subtotal = try subtotal.adding(line.lineTotal)
        }
        self.totalItems = items
        self.subtotal = subtotal
    }

    /// Whether the cart has no lines.
    public var isEmpty: Bool { lines.isEmpty }

    /// The quantity of `sku` in the cart, 0 when it has no line.
    public func quantity(of sku: String) -> Int {
        lines.first { $0.sku == sku }?.quantity ?? 0
    }
}
