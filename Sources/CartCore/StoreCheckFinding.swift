/// A problem in the rows that `StoreMaintenance.check()` finds the same way in every backend,
/// worded once for all of them: the summaries a cart row and an order row keep of their lines
/// no longer match the lines, order numbers are missing, or an order's lines are stamped with
/// another instant than the order. Another client that wrote the
/// tables directly leaves these; `CartService` never does.
public enum StoreCheckFinding: Hashable, Sendable, CustomStringConvertible {
    /// A cart whose row counts `counted` lines while `stored` exist.
    case cartLineCount(cart: String, counted: Int64, stored: Int64)
    /// A cart whose next line position is not above its last line's.
    case cartNextPosition(cart: String, next: Int64, last: Int64)
    /// An order without lines.
    case orderWithoutLines(number: Int64)
    /// An order whose item count and total (in minor units) are not the sums of its lines'.
    case orderTotals(number: Int64, items: Int64, total: Int64, lineItems: Int64, lineTotal: Int64)
    /// An order whose lines' item counts or totals add up to more than a 64-bit integer holds.
    case orderLinesOverflow(number: Int64)
    /// Fewer orders than the highest order number: numbers below it are missing.
    case orderNumbersMissing(orders: Int64, highest: Int64)
    /// An order in another currency than the store's: orders are read in the store's, which
    /// cannot change while orders exist.
    case orderCurrency(number: Int64, currency: String, storeCurrency: String)
    /// An order with `lines` lines whose instant is not the order's: a line keeps its order's
    /// instant so that orders of a product are found by time from the lines alone, and such a
    /// line makes `orders --sku` with `--since` or `--until` disagree with the order.
    case orderLineInstants(number: Int64, lines: Int64)

    public var description: String {
        switch self {
        case .cartLineCount(let cart, let counted, let stored):
            return "cart '\(DisplayText.clean(cart))': its row counts \(counted) line\(counted == 1 ? "" : "s"), cart_lines holds \(stored)"
        case .cartNextPosition(let cart, let next, let last):
            return "cart '\(DisplayText.clean(cart))': its next line position \(next) is not above its last line's, \(last)"
        case .orderWithoutLines(let number):
            return "order \(number) has no lines"
        case .orderTotals(let number, let items, let total, let lineItems, let lineTotal):
            return "order \(number): its totals (\(items) items, \(total) minor units) are not its lines' "
                + "(\(lineItems) items, \(lineTotal) minor units)"
        case .orderLinesOverflow(let number):
            return "order \(number): its lines' items or totals add up to more than a 64-bit integer holds"
        case .orderNumbersMissing(let orders, let highest):
            return "\(orders) orders are numbered up to \(highest): numbers are missing"
        case .orderCurrency(let number, let currency, let storeCurrency):
            return "order \(number) is in '\(DisplayText.clean(currency))', the store in '\(DisplayText.clean(storeCurrency))'"
        case .orderLineInstants(let number, let lines):
            return "order \(number): \(lines) of its lines \(lines == 1 ? "is" : "are") stamped with another instant than the order"
        }
    }

    /// The findings for one cart's row: its line count and next position against its lines'
    /// count and highest position.
    public static func cartSummary(cart: String, lineCount: Int64, nextPosition: Int64, storedLines: Int64, lastPosition: Int64)
        -> [StoreCheckFinding]
    {
        var findings: [StoreCheckFinding] = []
        if lineCount != storedLines { findings.append(.cartLineCount(cart: cart, counted: lineCount, stored: storedLines)) }
        if nextPosition <= lastPosition { findings.append(.cartNextPosition(cart: cart, next: nextPosition, last: lastPosition)) }
        return findings
    }

    /// The finding for one order's row against its lines, if any: `lines` is how many it has;
    /// `lineItems` and `lineTotal` are the sums of its lines, `nil` when a sum does not fit 64
    /// bits.
    public static func orderSummary(number: Int64, items: Int64, total: Int64, lines: Int64, lineItems: Int64?, lineTotal: Int64?)
        -> StoreCheckFinding?
    {
        if lines == 0 { return .orderWithoutLines(number: number) }
        guard let lineItems, let lineTotal else { return .orderLinesOverflow(number: number) }
        guard items != lineItems || total != lineTotal else { return nil }
        return .orderTotals(number: number, items: items, total: total, lineItems: lineItems, lineTotal: lineTotal)
    }
}
