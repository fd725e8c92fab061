import CartCore

extension CommandRunner {
    /// The error with a "Did you mean …?" naming the stored SKU nearest an unknown one, when
    /// one is near enough to be a plausible typo; any other error as it is. A SKU another
    /// client stored with surrounding space or control characters is never offered: a lookup
    /// trims what is typed and refuses control characters, so none would find it.
    func withSuggestion(_ error: any Error) -> any Error {
        guard let cartError = error as? CartError, case .unknownProduct(let sku) = cartError,
            let products = try? service().products(includeInactive: true),
            let match = Suggestion.closest(to: sku, in: products.map(\.sku).filter { StoredDataError.unusableSKU($0) == nil })
        else { return error }
        return HintedError(error: error, hint: " Did you mean '\(DisplayText.clean(match))'?")
    }
}
