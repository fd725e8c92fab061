/// A value read from the store that the service cannot work with: another client wrote it
/// (each such value passes the schema's own checks). Nothing was changed.
public struct StoredDataError: CategorizedError, Hashable, Sendable, CustomStringConvertible {
    /// What is out of range, in words, naming the row.
    public let message: String

    /// Creates an error.
    public init(_ message: String) {
        self.message = message
    }

    public var category: ErrorCategory { .damagedStore }

    public var description: String { "The store holds a value this version cannot use: \(message)." }

    /// `value` as an `Int`, if it lies in `range` (see `StoredRange`); otherwise this error,
    /// naming the value by `what`: `the quantity of 'apple' in cart 'alice' is 0, below 1`.
    public static func checked(_ value: Int64, in range: ClosedRange<Int64>, _ what: @autoclosure () -> String)
        throws(StoredDataError) -> Int
    {
        guard range.contains(value), let int = Int(exactly: value) else {
            throw StoredDataError("\(what()) \(StoredRange.outside(value, range))")
        }
        return int
    }

    /// The settings, if each lies in the range `CartService` checks before storing one.
    static func checked(_ settings: StoreSettings) throws(StoredDataError) -> StoreSettings {
        _ = try checked(Int64(settings.maxLineQuantity), in: StoredRange.maxLineQuantity, "the maximum line quantity setting")
        _ = try checked(Int64(settings.maxLinesPerCart), in: StoredRange.maxLinesPerCart, "the maximum lines per cart setting")
        return settings
    }

    /// `value + 1`, or this error naming `what` when `value` is the largest integer.
    static func successor(of value: Int, _ what: @autoclosure () -> String) throws(StoredDataError) -> Int {
        let (next, overflow) = value.addingReportingOverflow(1)
        guard !overflow else { throw StoredDataError("\(what()) is \(value), the largest integer") }
        return next
    }
}

extension StoredDataError {
    /// The error for the stored `name` of product `sku` when the service refuses it as input
    /// (another client wrote it), or `nil` for a usable name.
    public static func unusableName(_ name: String, ofProduct sku: String) -> StoredDataError? {
        unusableName(name, of: "product '\(DisplayText.clean(sku))'")
    }

    /// The error for the `name` the line of order `number` for `sku` keeps, when no product
    /// could be called so: checkout copies a product's name, so only another client's write
    /// stores such a name. `nil` for a usable name.
    public static func unusableName(_ name: String, ofLineOf number: Int64, sku: String) -> StoredDataError? {
        unusableName(name, of: "the line of order \(number) for '\(DisplayText.clean(sku))'")
    }

    private static func unusableName(_ name: String, of owner: @autoclosure () -> String) -> StoredDataError? {
        Validation.storableNameProblem(name).map { StoredDataError("the name of \(owner()) is '\(DisplayText.clean(name))': \($0)") }
    }

    /// The error for a stored `sku` that the service would not take as it is, or `nil` for a
    /// usable SKU: no lookup finds it, and an export would import it as another SKU or not
    /// at all. `owner` names the row that holds it: `a product`, `a line of order 3`.
    public static func unusableSKU(_ sku: String, of owner: @autoclosure () -> String = "a product") -> StoredDataError? {
        Validation.storedSKUProblem(sku).map { StoredDataError("the SKU of \(owner()) is '\(DisplayText.clean(sku))': \($0)") }
    }

    /// The error for a stored cart `id` that the service would not take, or `nil` for a usable
    /// one: no command or request could name the cart. `what` names the value and the row that
    /// holds it: `the ID of a cart`, `the cart ID of order 3`.
    public static func unusableCartID(_ id: String, named what: @autoclosure () -> String = "the ID of a cart")
        -> StoredDataError?
    {
        Validation.storedCartIDProblem(id).map { StoredDataError("\(what()) is '\(DisplayText.clean(id))': \($0)") }
    }
}

extension StoredDataError {
    /// The error for a line of cart `cartID` whose product another client deleted: a cart
    /// report names it as a problem; a copy of the store cannot keep the line.
    static func productGone(sku: String, cartID: String) -> StoredDataError {
        StoredDataError(
            "the line of '\(DisplayText.clean(sku))' in cart '\(DisplayText.clean(cartID))' names a product the store no "
                + "longer holds; remove the line from the cart first")
    }

    /// The error for order `number` stored in `currency`, another currency than the store's:
    /// its amounts would be shown in the store's. `nil` when the two are the same.
    public static func otherCurrency(_ currency: String, ofOrder number: Int64, store: Currency) -> StoredDataError? {
        guard currency != store.code else { return nil }
        return StoredDataError(
            StoreCheckFinding.orderCurrency(number: number, currency: currency, storeCurrency: store.code).description)
    }

    /// The error for an order whose stored lines do not add up to it (none at all, or other
    /// totals), as another client's write or a damaged page leaves it, worded as `db check`
    /// words it; `nil` for an order whose lines are whole. An order read without its lines
    /// would otherwise be shown, exported or copied as if it had none.
    public static func incomplete(_ order: Order) -> StoredDataError? {
        var items: Int64? = 0
        var total: Int64? = 0
        for line in order.lines {
            items = items.flatMap { sum in
                let (next, overflow) = sum.addingReportingOverflow(Int64(line.quantity))
                return overflow ? nil : next
            }
            total = total.flatMap { sum in
                let (next, overflow) = sum.addingReportingOverflow(line.lineTotal.minorUnits)
                return overflow ? nil : next
            }
        }
        guard
            let finding = StoreCheckFinding.orderSummary(
                number: order.number.rawValue, items: Int64(order.totalItems), total: order.total.minorUnits,
                lines: Int64(order.lines.count), lineItems: items, lineTotal: total)
        else { return nil }
        return StoredDataError(finding.description)
    }
}
