import CartCore

/// Streams the CSV export page by page, so memory stays flat however many orders there are:
/// each piece is one page of orders read in its own unit, the next page starting after the
/// last order of this one. Orders never change once placed, so the pages join up; an order
/// placed during the export is in it only if it sorts after the page being read.
final class OrderExport {
    /// Orders per page.
    static let pageSize = 500

    private let service: CartService
    private var query: OrderQuery
    private var remaining: Int?
    private var pending: [UInt8]?
    private var finished = false

    /// Reads the first page now, so a bad query or a store failure is answered with its
    /// status before any of the body is sent.
    ///
    /// - Throws: the errors of `CartService.orders(matching:)`.
    init(service: CartService, query: OrderQuery) throws {
        self.service = service
        self.query = query
        self.remaining = query.limit
        pending = Array(OrderCSV.header.utf8) + (try nextPage())
    }

    /// The next piece of the body, or nil after the last.
    ///
    /// - Throws: a storage error; the connection then ends without the final chunk.
    func next() throws -> [UInt8]? {
        if let piece = pending {
            pending = nil
            return piece
        }
        guard !finished else { return nil }
        return try nextPage()
    }

    private func nextPage() throws -> [UInt8] {
        let size = min(Self.pageSize, remaining ?? Self.pageSize)
        guard size > 0 else {
            finished = true
            return []
        }
        query.limit = size
        let page = try service.orders(matching: query)
        var text = ""
        for order in page.orders { text += OrderCSV.rows(of: order) }
        remaining = remaining.map { $0 - page.orders.count }
        query.after = page.next
        if page.next == nil { finished = true }
        return Array(text.utf8)
    }
}
