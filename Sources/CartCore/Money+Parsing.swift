extension Money {
    /// Parses a non-negative decimal amount exactly: `12.99`, `12.9`, `12`, `0.05`, `.50` is
    /// refused, and so are more fraction digits than the currency has (`12.999` in USD).
    ///
    /// Only ASCII digits and one `.` are accepted: no sign, exponent, thousands separator,
    /// spaces or other numerals. Parsing never uses floating point.
    ///
    /// - Throws: `CartError.invalidAmount` naming the text and what is wrong with it.
    public init(parsing text: String, currency: Currency) throws(CartError) {
        let bytes = Array(text.utf8)
        func invalid(_ reason: String) -> CartError { .invalidAmount(text, reason: reason) }
        guard !bytes.isEmpty else { throw invalid("it is empty") }
        guard bytes.count <= 40 else { throw invalid("it is too long") }

        var whole: Int64 = 0
        var fraction: Int64 = 0
        var fractionDigits = 0
        var wholeDigits = 0
        var seenPoint = false
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let digit = Int64(byte - UInt8(ascii: "0"))
                if seenPoint {
                    fractionDigits += 1
                    guard fractionDigits <= currency.minorUnitExponent else {
                        throw invalid(
                            currency.minorUnitExponent == 0
                                ? "\(currency.code) has no fractional digits"
                                : "\(currency.code) has at most \(currency.minorUnitExponent) decimal places")
                    }
                    fraction = fraction * 10 + digit
                } else {
                    wholeDigits += 1
                    let (shifted, o1) = whole.multipliedReportingOverflow(by: 10)
                    let (next, o2) = shifted.addingReportingOverflow(digit)
                    guard !o1, !o2 else { throw invalid("it is too large") }
                    whole = next
                }
            case UInt8(ascii: "."):
                guard !seenPoint else { throw invalid("it has more than one decimal point") }
                seenPoint = true
            case UInt8(ascii: "-"):
                throw invalid("amounts cannot be negative")
            default:
                // The example is an amount the currency takes: one without a minor unit has no point.
                throw invalid(
                    currency.minorUnitExponent == 0
                        ? "use digits only, such as 1299" : "use digits and at most one '.', such as 12.99")
            }
        }
        guard wholeDigits > 0 else { throw invalid("it needs digits before the decimal point") }
        guard !seenPoint || fractionDigits > 0 else { throw invalid("it needs digits after the decimal point") }
        for _ in fractionDigits..<currency.minorUnitExponent { fraction *= 10 }

        var scale: Int64 = 1
        for _ in 0..<currency.minorUnitExponent { scale *= 10 }
        let (scaled, o1) = whole.multipliedReportingOverflow(by: scale)
        let (total, o2) = scaled.addingReportingOverflow(fraction)
        guard !o1, !o2 else { throw invalid("it is too large") }
        self.init(minorUnits: total, currency: currency)
    }
}
