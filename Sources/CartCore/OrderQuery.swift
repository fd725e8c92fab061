#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Which orders to read, in which order, and how many: a filter plus a keyset page.
public struct OrderQuery: Hashable, Sendable {
    /// The order in which orders come back: by the time they were placed, ties broken by
    /// order number (the same as number order unless the clock went backwards).
    public enum Sort: Hashable, Sendable, CustomStringConvertible {
        /// Most recently placed first.
        case newestFirst
        /// Earliest placed first.
        case oldestFirst

        /// `newest first` or `oldest first`.
        public var description: String {
            switch self {
            case .newestFirst: "newest first"
            case .oldestFirst: "oldest first"
            }
        }
    }

    /// Only orders of this cart.
    public var cartID: String?
    /// Only orders placed at or after this instant.
    public var placedOnOrAfter: Date?
    /// Only orders placed strictly before this instant.
    public var placedBefore: Date?
    /// Only orders with a line of this SKU.
    public var sku: String?
    /// The direction of the listing.
    public var sort: Sort
    /// The keyset cursor: only orders that come after order `after` in `sort` order. Pass the
    /// last order number of one page to get the next.
    public var after: OrderNumber?
    /// At most this many orders. `nil` is a page of `CartService.defaultPageSize` for
    /// `CartService.orders(matching:)`, and every order for `forEachOrder(matching:_:)`.
    public var limit: Int?

    /// Creates a query; the defaults select every order, newest first (a page at a time from
    /// `CartService.orders(matching:)`).
    public init(
        cartID: String? = nil, placedOnOrAfter: Date? = nil, placedBefore: Date? = nil, sku: String? = nil,
        sort: Sort = .newestFirst, after: OrderNumber? = nil, limit: Int? = nil
    ) {
        self.cartID = cartID
        self.placedOnOrAfter = placedOnOrAfter
        self.placedBefore = placedBefore
        self.sku = sku
        self.sort = sort
        self.after = after
        self.limit = limit
    }
}
