#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Everything an `InMemoryCartRepository` holds. Only touched while the repository's lock is
/// held.
///
/// The hot properties opt out of run-time exclusivity checks (`@exclusivity(unchecked)`): the
/// lock already serializes every access, and the checks were an eighth of an in-memory add
/// (issue 6, callgrind).
final class InMemoryState {
    struct LineSlot {
        var quantity: Int
        var position: Int
    }

    /// A cart's header without its ID, which is the cart's key: storing a header then retains
    /// no string.
    struct HeaderSlot {
        var version: Int
        var updatedAt: Date
    }

    /// One cart. A reference, so a unit looks the cart up once and changes it in place instead
    /// of rehashing its ID for every field it touches.
    final class CartSlot {
        static let initialLineCapacity = 8

        @exclusivity(unchecked) var header: HeaderSlot?
        /// Starts with room for a few lines: growing from empty rehashed every line at each
        /// doubling, 8% of an in-memory add (callgrind).
        /// Keyed by the SKU's ordinal (`InMemoryState.ordinals`): an `Int` hashes far cheaper
        /// than the SKU, on every look-up and on every rehash as the table grows.
        @exclusivity(unchecked) var lines = LineTable(minimumCapacity: initialLineCapacity)
        @exclusivity(unchecked) var nextPosition = 0

        var orderedLines: [(ordinal: Int, quantity: Int)] {
            lines.all.sorted { $0.line.position < $1.line.position }.map { ($0.ordinal, $0.line.quantity) }
        }
    }

    @exclusivity(unchecked) var settings: StoreSettings
    /// The ordinal of each stored product's SKU: its position in `catalog`, and the key of its
    /// lines in every cart.
    @exclusivity(unchecked) var ordinals: [String: Int] = [:]
    /// Every product at its SKU's ordinal. Only grows: a product whose creation is rolled back
    /// leaves `nil` here, and gets a new ordinal if created again. An array, so that the hot
    /// path reads a product's fields in place; a dictionary's subscript copies the value out,
    /// retaining its strings.
    @exclusivity(unchecked) var catalog: [Product?] = []
    @exclusivity(unchecked) var carts: [String: CartSlot] = [:]
    var orders: [Order] = []
    var orderNumberByKey: [String: Int64] = [:]
    /// Whether `orders` (kept in number order) is also in placedAt order, as it is unless the
    /// clock went backwards; history then lists it without sorting.
    var ordersAreInTimeOrder = true
    var changeCounter: Int64 = 0

    init(settings: StoreSettings) {
        self.settings = settings
    }
}
