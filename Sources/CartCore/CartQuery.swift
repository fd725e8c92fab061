/// Which stored carts to list, and how many: a filter plus a keyset page in ID order.
public struct CartQuery: Hashable, Sendable {
    /// Only carts that have at least one line (leaving out those a checkout or a clear emptied).
    public var nonEmpty: Bool
    /// The keyset cursor: only carts whose ID sorts after this one. Pass the `next` of one page
    /// to get the following one.
    public var after: String?
    /// At most this many carts, 1...10000; `nil` for all.
    public var limit: Int?

    /// Creates a query; the defaults list every stored cart.
    public init(nonEmpty: Bool = false, after: String? = nil, limit: Int? = nil) {
        self.nonEmpty = nonEmpty
        self.after = after
        self.limit = limit
    }
}
