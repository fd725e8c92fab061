import CartCore

extension CartError {
    /// The case's name in snake_case, as the API's error `code` and a problem's `code`. A new
    /// case fails to compile here until it has one.
    var code: String {
        switch self {
        case .invalidQuantity: "invalid_quantity"
        case .invalidAmount: "invalid_amount"
        case .unknownCurrency: "unknown_currency"
        case .invalidCurrencySymbol: "invalid_currency_symbol"
        case .builtInCurrencyRedefined: "built_in_currency_redefined"
        case .currencyMismatch: "currency_mismatch"
        case .currencyLocked: "currency_locked"
        case .amountOverflow: "amount_overflow"
        case .invalidSKU: "invalid_sku"
        case .invalidName: "invalid_name"
        case .invalidCartID: "invalid_cart_id"
        case .invalidIdempotencyKey: "invalid_idempotency_key"
        case .invalidSetting: "invalid_setting"
        case .invalidStock: "invalid_stock"
        case .stockChangeRefused: "stock_change_refused"
        case .unknownProduct: "unknown_product"
        case .inactiveProduct: "inactive_product"
        case .productExists: "product_exists"
        case .productInCarts: "product_in_carts"
        case .lineQuantityCapExceeded: "line_quantity_cap_exceeded"
        case .lineCountCapExceeded: "line_count_cap_exceeded"
        case .insufficientStock: "insufficient_stock"
        case .notInCart: "not_in_cart"
        case .versionConflict: "version_conflict"
        case .totalChanged: "total_changed"
        case .emptyCart: "empty_cart"
        case .cannotCheckOut: "cannot_check_out"
        case .idempotencyKeyReused: "idempotency_key_reused"
        case .orderNotFound: "order_not_found"
        case .mergeIntoSelf: "merge_into_self"
        case .cartNotFound: "cart_not_found"
        case .invalidImportItem: "invalid_import_item"
        case .newProductIncomplete: "new_product_incomplete"
        case .duplicateImportSKU: "duplicate_import_sku"
        case .invalidLimit: "invalid_limit"
        case .emptyDateRange: "empty_date_range"
        case .utcOffsetNeedsDays: "utc_offset_needs_days"
        case .negativeAge: "negative_age"
        }
    }

    /// The description, except where it would tell one storefront client about another's
    /// cart: the cart an idempotency key was first used for.
    var publicMessage: String {
        switch self {
        case .idempotencyKeyReused: "This idempotency key was already used to check out another cart."
        default: description
        }
    }
}
