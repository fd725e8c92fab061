#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Every way a cart operation can be refused by the rules, with a one-line description for
/// people and the `ErrorCategory` a front end maps.
///
/// Storage failures are not `CartError`s: a backend throws its own error type (for SQLite,
/// `DatabaseError`), which reports a category too, and `CartService` lets it through unchanged.
/// Descriptions name no front end's commands; a front end adds its own hints.
public enum CartError: CategorizedError, Hashable, Sendable, CustomStringConvertible {
    /// A quantity outside `range`; `given` is what was asked for.
    case invalidQuantity(given: Int, range: ClosedRange<Int>)
    /// An amount that is not a valid non-negative decimal in the store currency.
    case invalidAmount(String, reason: String)
    /// A currency code this build does not know.
    case unknownCurrency(String)
    /// A currency symbol that is empty, longer than 8 characters, or holds a character a
    /// terminal would act on (a control, a line separator or a bidirectional override).
    case invalidCurrencySymbol(String)
    /// A built-in currency's code with other minor-unit digits or another symbol than the
    /// table's: amounts stored in it would change meaning when read back as the table's.
    case builtInCurrencyRedefined(String)
    /// Two amounts in different currencies were combined.
    case currencyMismatch(String, String)
    /// The store currency cannot change once products or orders exist.
    case currencyLocked(current: String, requested: String)
    /// An arithmetic result does not fit in 64-bit minor units.
    case amountOverflow
    /// A SKU that is empty, too long, or holds control characters.
    case invalidSKU(String, reason: String)
    /// A product name that is empty, too long, or holds control characters.
    case invalidName(String, reason: String)
    /// A cart ID that is empty, too long, or holds control characters.
    case invalidCartID(String, reason: String)
    /// An idempotency key that is empty, too long, or holds control characters.
    case invalidIdempotencyKey(String, reason: String)
    /// A store setting outside its allowed range.
    case invalidSetting(name: String, value: Int, range: ClosedRange<Int>)
    /// A stock level below zero.
    case invalidStock(Int)
    /// A change of `change` units to the stock of `sku`, which holds `stock` units (`nil`: not
    /// tracked), that would leave it untracked, below zero or beyond what a stock can count.
    case stockChangeRefused(sku: String, change: Int, stock: Int?)
    /// No product has this SKU.
    case unknownProduct(String)
    /// The product exists but is not for sale.
    case inactiveProduct(String)
    /// A product with this SKU already exists.
    case productExists(String)
    /// The product cannot be deleted while these carts (sorted by ID) hold it.
    case productInCarts(sku: String, carts: [String])
    /// The line would hold more than the per-line cap.
    case lineQuantityCapExceeded(sku: String, requested: Int, cap: Int)
    /// A new line would exceed the cap on distinct lines per cart.
    case lineCountCapExceeded(cart: String, cap: Int)
    /// The line would hold more units than are in stock.
    case insufficientStock(sku: String, requested: Int, available: Int)
    /// The SKU has no line in the cart.
    case notInCart(sku: String, cart: String)
    /// The cart changed since the caller read it.
    case versionConflict(cart: String, expected: Int, actual: Int)
    /// Checkout of a cart whose total is not the one the caller showed: a price changed.
    case totalChanged(cart: String, expected: Money, actual: Money)
    /// Checkout of a cart with no lines.
    case emptyCart(String)
    /// Checkout of a cart that has problems (`CartService.cartReport(_:)`), every one listed.
    case cannotCheckOut(cart: String, problems: [CartProblem])
    /// The idempotency key already placed an order for another cart.
    case idempotencyKeyReused(key: String, cart: String)
    /// No order has this number.
    case orderNotFound(OrderNumber)
    /// Merging a cart into itself.
    case mergeIntoSelf(String)
    /// No cart with this ID was ever written (one emptied by a checkout or `clear()` exists).
    case cartNotFound(String)
    /// The item at `index` (0-based) of a product import is invalid; nothing was imported.
    indirect case invalidImportItem(index: Int, reason: CartError)
    /// An import item names a product the store does not hold and lacks what a new product
    /// needs (`name`, `price`).
    case newProductIncomplete(sku: String, missing: [String])
    /// A product import names the same SKU at two indexes (0-based); nothing was imported.
    case duplicateImportSKU(String, firstIndex: Int, index: Int)
    /// A page size outside 1...`CartService.maxPageSize`.
    case invalidLimit(Int)
    /// An order query's `placedBefore` is not after its `placedOnOrAfter`: no order can match.
    case emptyDateRange(since: Date, until: Date)
    /// A UTC offset for order statistics that are not grouped by day or month: it says where
    /// days begin, so it means nothing to the others.
    case utcOffsetNeedsDays(UTCOffset, grouping: OrderStatsGrouping)
    /// A negative age for pruning carts, which would reach into the future.
    case negativeAge(Duration)

    public var description: String {
        switch self {
        case .invalidQuantity(let given, let range):
            if range.upperBound == Int.max { return "Quantity must be at least \(range.lowerBound); got \(given)." }
            return "Quantity must be between \(range.lowerBound) and \(range.upperBound); got \(given)."
        case .invalidAmount(let text, let reason):
            return "Invalid amount '\(text.displayable)': \(reason)."
        case .unknownCurrency(let code):
            return "Unknown currency '\(code.displayable)'; use an ISO 4217 code such as USD, EUR, JPY or KWD."
        case .invalidCurrencySymbol(let symbol):
            return "Invalid currency symbol '\(symbol.displayable)': it must be 1 to 8 printable characters."
        case .builtInCurrencyRedefined(let code):
            let builtIn = Currency.known[code]
            let digits = builtIn.map { "\($0.minorUnitExponent) minor-unit digits" } ?? "its own minor-unit digits"
            let symbol = builtIn?.symbol.map { "the symbol \($0)" } ?? "no symbol"
            return "The currency \(code.displayable) is built in, with \(digits) and \(symbol); it cannot have others."
        case .currencyMismatch(let a, let b):
            return "Cannot combine amounts in \(a) and \(b)."
        case .currencyLocked(let current, let requested):
            return "The store currency is \(current) and it holds products or orders; it cannot change to \(requested)."
        case .amountOverflow:
            return "The amount is too large to represent."
        case .invalidSKU(let sku, let reason):
            return "Invalid SKU '\(sku.displayable)': \(reason)."
        case .invalidName(let name, let reason):
            return "Invalid product name '\(name.displayable)': \(reason)."
        case .invalidCartID(let id, let reason):
            return "Invalid cart ID '\(id.displayable)': \(reason)."
        case .invalidIdempotencyKey(let key, let reason):
            return "Invalid idempotency key '\(key.displayable)': \(reason)."
        case .invalidSetting(let name, let value, let range):
            if range.upperBound == Int.max { return "\(name) must be at least \(range.lowerBound); got \(value)." }
            return "\(name) must be between \(range.lowerBound) and \(range.upperBound); got \(value)."
        case .invalidStock(let stock):
            return "Stock must be zero or more; got \(stock)."
        case .stockChangeRefused(let sku, let change, nil):
            let consequence =
                change < 0 ? "units cannot be taken from it" : change > 0 ? "units cannot be added to it" : "it has no count to change"
            return "The stock of '\(sku.displayable)' is not tracked, so \(consequence); set a stock level first."
        case .stockChangeRefused(let sku, let change, let stock?) where change < 0:
            // The magnitude, which `-change` cannot hold for `Int.min`.
            return "Cannot take \(change.magnitude) from the stock of '\(sku.displayable)': it holds \(stock)."
        case .stockChangeRefused(let sku, let change, let stock?):
            return "Cannot add \(change) to the stock of '\(sku.displayable)' (\(stock)): a stock holds at most \(Int.max)."
        case .unknownProduct(let sku):
            return "No product with SKU '\(sku.displayable)'."
        case .inactiveProduct(let sku):
            return "Product '\(sku.displayable)' is not for sale."
        case .productExists(let sku):
            return "A product with SKU '\(sku.displayable)' already exists."
        case .productInCarts(let sku, let carts):
            let shown = carts.prefix(5).map { "'\($0.displayable)'" }.joined(separator: ", ")
            let more = carts.count > 5 ? " and \(carts.count - 5) more" : ""
            let count = carts.count == 1 ? "1 cart" : "\(carts.count) carts"
            let those = carts.count == 1 ? "that cart" : "those carts"
            return "Product '\(sku.displayable)' is in \(count) (\(shown)\(more)); remove it from \(those) before deleting it."
        case .lineQuantityCapExceeded(let sku, let requested, let cap):
            return "Cannot hold \(requested) of '\(sku.displayable)': at most \(cap) per line."
        case .lineCountCapExceeded(let cart, let cap):
            return "Cart '\(cart.displayable)' cannot take another line: a cart holds at most \(cap) line\(cap == 1 ? "" : "s")."
        case .insufficientStock(let sku, let requested, let available):
            guard available > 0 else { return "'\(sku.displayable)' is out of stock." }
            return "Insufficient stock for '\(sku.displayable)': the line would hold \(requested) of the \(available) in stock."
        case .notInCart(let sku, let cart):
            return "'\(sku.displayable)' is not in cart '\(cart.displayable)'."
        case .versionConflict(let cart, let expected, let actual) where expected > actual:
            return "Cart '\(cart.displayable)' is at version \(actual), not \(expected), a version it has not reached yet."
        case .versionConflict(let cart, let expected, let actual):
            return "Cart '\(cart.displayable)' is at version \(actual), not \(expected); it changed since you read it."
        case .totalChanged(let cart, let expected, let actual):
            return "Cart '\(cart.displayable)' totals \(actual.formatted), not the \(expected.formatted) expected; nothing was ordered."
        case .emptyCart(let cart):
            return "Cart '\(cart.displayable)' is empty; there is nothing to check out."
        case .cannotCheckOut(let cart, let problems):
            let list = problems.map { $0.message.hasSuffix(".") ? String($0.message.dropLast()) : $0.message }
            return "Cart '\(cart.displayable)' cannot be checked out: \(list.joined(separator: "; "))."
        case .idempotencyKeyReused(let key, let cart):
            return "Idempotency key '\(key.displayable)' was already used for cart '\(cart.displayable)'."
        case .orderNotFound(let number):
            return "No order number \(number)."
        case .mergeIntoSelf(let cart):
            return "Cannot merge cart '\(cart.displayable)' into itself."
        case .cartNotFound(let cart):
            return "No cart '\(cart.displayable)'."
        case .invalidImportItem(let index, let reason):
            return "Item \(index + 1): \(reason.description)"
        case .newProductIncomplete(let sku, let missing):
            let fields = missing.map { "a \($0)" }.joined(separator: " and ")
            return "'\(sku.displayable)' is not in the catalog, so it is a new product and needs \(fields)."
        case .duplicateImportSKU(let sku, let first, let index):
            return "Item \(index + 1) repeats SKU '\(sku.displayable)' of item \(first + 1)."
        case .invalidLimit(let limit):
            return "Limit must be between 1 and \(CartService.maxPageSize); got \(limit)."
        case .emptyDateRange(let since, let until):
            return "The range from \(UTCCalendar.iso8601(since)) until \(UTCCalendar.iso8601(until)) is empty: its end must come after its start."
        case .utcOffsetNeedsDays(let offset, let grouping):
            return "The UTC offset \(offset) says where days begin: it needs orders grouped by day or by month, not \(grouping)."
        case .negativeAge(let age):
            return "The age of carts to prune must be zero or more; got \(age)."
        }
    }
}

extension CartError {
    public var category: ErrorCategory {
        switch self {
        case .invalidQuantity, .invalidAmount, .unknownCurrency, .invalidCurrencySymbol, .builtInCurrencyRedefined,
            .currencyMismatch, .invalidSKU, .invalidName,
            .invalidCartID, .invalidIdempotencyKey, .invalidSetting, .invalidStock, .invalidImportItem,
            .newProductIncomplete, .duplicateImportSKU, .invalidLimit, .emptyDateRange, .utcOffsetNeedsDays, .negativeAge:
            return .invalidInput
        case .unknownProduct, .notInCart, .orderNotFound, .cartNotFound:
            return .notFound
        case .productExists, .productInCarts, .idempotencyKeyReused, .totalChanged:
            return .conflict
        case .versionConflict:
            return .staleVersion
        case .currencyLocked, .amountOverflow, .inactiveProduct, .lineQuantityCapExceeded, .lineCountCapExceeded,
            .insufficientStock, .stockChangeRefused, .emptyCart, .cannotCheckOut, .mergeIntoSelf:
            return .refused
        }
    }
}

extension String {
    /// The text as safe to quote on one line (see `DisplayText.clean`).
    var displayable: String { DisplayText.clean(self) }
}
