/// An exact amount of money: a whole number of minor units (cents for USD) in one currency.
///
/// There is no floating point anywhere in `Money`: amounts are parsed from and formatted to
/// decimal text digit by digit, and every arithmetic operation that would overflow `Int64`
/// throws `CartError.amountOverflow` instead of wrapping or trapping.
public struct Money: Hashable, Sendable, CustomStringConvertible {
    /// The amount in minor units: 1299 is $12.99, 500 is ¥500, 12990 is 12.990 KWD.
    public let minorUnits: Int64
    /// The currency the amount is in.
    public let currency: Currency

    /// Creates an amount from minor units.
    public init(minorUnits: Int64, currency: Currency) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    /// Zero in the given currency.
    public static func zero(_ currency: Currency) -> Money {
        Money(minorUnits: 0, currency: currency)
    }

    /// The sum of two amounts in the same currency.
    ///
    /// - Throws: `CartError.currencyMismatch` or `CartError.amountOverflow`.
    public func adding(_ other: Money) throws(CartError) -> Money {
        guard currency == other.currency else { throw Currency.mismatch(currency, other.currency) }
        let (sum, overflow) = minorUnits.addingReportingOverflow(other.minorUnits)
        guard !overflow else { throw .amountOverflow }
        return Money(minorUnits: sum, currency: currency)
    }

    /// The amount multiplied by a whole quantity, as for a cart line's total.
    ///
    /// - Throws: `CartError.amountOverflow` if the product does not fit in `Int64`.
    public func multiplied(by quantity: Int) throws(CartError) -> Money {
        let (product, overflow) = minorUnits.multipliedReportingOverflow(by: Int64(quantity))
        guard !overflow else { throw .amountOverflow }
        return Money(minorUnits: product, currency: currency)
    }

    /// The amount as plain decimal text with the currency's digits: `12.99`, `500`, `12.990`,
    /// `-0.50`. This is the form used in JSON and CSV.
    public var decimalString: String {
        let exponent = currency.minorUnitExponent
        let negative = minorUnits < 0
        // The magnitude as UInt64 so that Int64.min has a representation.
        let digits = String(minorUnits.magnitude)
        var text: String
        if exponent == 0 {
            text = digits
        } else {
            let padded = String(repeating: "0", count: max(0, exponent + 1 - digits.count)) + digits
            let split = padded.index(padded.endIndex, offsetBy: -exponent)
            text = padded[..<split] + "." + padded[split...]
        }
        return negative ? "-" + text : text
    }

    /// The amount for people, whole units grouped by threes: `$12.99`, `$1,299.00`, `€3.50`,
    /// `¥12,500`, or `12.990 KWD` where the currency has no symbol here.
    public var formatted: String {
        var text = Substring(decimalString)
        let negative = text.first == "-"
        if negative { text = text.dropFirst() }
        let whole = text.prefix { $0 != "." }
        var grouped = ""
        for (offset, digit) in whole.enumerated() {
            if offset > 0 && (whole.count - offset) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        let amount = grouped + text.dropFirst(whole.count)
        guard let symbol = currency.symbol else { return (negative ? "-" : "") + amount + " " + currency.code }
        return (negative ? "-" : "") + symbol + amount
    }

    public var description: String { formatted }
}

extension Money: Comparable {
    /// Orders amounts of the same currency by value; amounts of different currencies order by
    /// code, then by digits and symbol, since currencies outside the built-in table may share
    /// a code, and two unequal amounts must never be unordered (a sort would misplace them).
    public static func < (lhs: Money, rhs: Money) -> Bool {
        let (left, right) = (lhs.currency, rhs.currency)
        if left != right {
            return (left.code, left.minorUnitExponent, left.symbol ?? "") < (right.code, right.minorUnitExponent, right.symbol ?? "")
        }
        return lhs.minorUnits < rhs.minorUnits
    }
}
