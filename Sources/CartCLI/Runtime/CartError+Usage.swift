import CartCore

extension CartError {
    /// Whether the error says a value is malformed (a SKU, cart ID, idempotency key, name,
    /// amount, quantity, limit, setting, currency or stock) rather than that a rule refused a
    /// well-formed request. Such a value can only have come from the command line or the
    /// environment, so the CLI reports it as a usage error; a bad value in an import file
    /// arrives wrapped in `invalidImportItem`, which is not one of these.
    var isMalformedValue: Bool {
        switch self {
        case .invalidSKU, .invalidCartID, .invalidIdempotencyKey, .invalidName, .invalidAmount, .invalidQuantity,
            .invalidLimit, .invalidSetting, .unknownCurrency, .invalidStock:
            return true
        default:
            return false
        }
    }
}
