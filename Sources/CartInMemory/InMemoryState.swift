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

    /// One cart: its header, once saved, and its lines by SKU.
    struct Cart {
        var header: CartHeader?
        var lines: [String: Line] = [:]
    }

    var settings: StoreSettings
    var products: [String: Product] = [:]
    /// Carts by ID; a cart whose header was never saved and that has no lines has no entry.
    var carts: [String: Cart] = [:]
    /// Every order; order `n` is at index `n - 1`.
    var orders: [Order] = []
    var orderNumbers: [String: OrderNumber] = [:]
    /// How many units have committed a change.
    var commits: Int64 = 0
}
