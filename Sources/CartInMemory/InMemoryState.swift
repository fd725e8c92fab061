#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CartCore

/// Everything an `InMemoryCartRepository` holds, in plain collections.
struct InMemoryState {
    /// One line of a cart.
    struct Line: Hashable {
        var quantity: Int
        var position: Int
    }

    var settings: StoreSettings
    var products: [String: Product] = [:]
    /// Cart headers by cart ID.
    var headers: [String: CartHeader] = [:]
    /// Each cart's lines by SKU, by cart ID; a cart without lines has no entry.
    var lines: [String: [String: Line]] = [:]
    /// Every order; order `n` is at index `n - 1`.
    var orders: [Order] = []
    var orderNumbers: [String: OrderNumber] = [:]
    /// How many units have committed a change.
    var commits: Int64 = 0
}
