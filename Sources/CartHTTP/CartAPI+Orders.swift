import CartCore
import HTTPServer

/// Checkout and the order history.
extension CartAPI {
    /// `POST /v1/carts/{id}/checkout` with `Idempotency-Key` and an optional body
    /// `{"expectedTotal"}`: 201 `{"order","replayed":false}` and the order's `Location`; a
    /// retry with the same key for the same cart gets 200 with the same order and
    /// `"replayed":true`, placing nothing. A cart whose total is not the expected one is 409
    /// `total_changed` with the cart as it is now (409, not 412: the condition is in the body).
    func checkout(_ request: APIRequest) throws -> HTTPResponse {
        let id = try cartID(request)
        _ = try request.query(allowed: [])
        let fields = try request.body(allowed: ["expectedTotal"], required: false)
        let expectedTotalText = try fields.string("expectedTotal")
        guard let key = try request.header("Idempotency-Key") else {
            throw APIError.badRequest(
                "missing_idempotency_key", "Checkout needs an Idempotency-Key header, made once per order attempt.")
        }
        let expectedTotal = try expectedTotalText.map { try Money(parsing: $0, currency: try service.settings().currency) }
        let expected = try expectedVersion(of: id, request)
        let result: CheckoutResult
        do {
            result = try conflictsAnswered(id, request) {
                try service.checkout(id, idempotencyKey: key, expectedVersion: expected, expectedTotal: expectedTotal)
            }
        } catch let error as CartError {
            guard case .totalChanged = error else { throw error }
            // With the cart, a storefront shows the new total without another request.
            var answer = APIError(error, log: failures)
            answer.cart = try service.cartReport(id)
            throw answer
        }
        let location = "/v1/orders/\(result.order.number)"
        return JSONBody.response(result, status: result.replayed ? 200 : 201, headers: ["Location": location])
    }

    /// `GET /v1/carts/{id}/orders?limit&after`: the cart's orders, newest first, a page at a time.
    func cartOrders(_ request: APIRequest) throws -> HTTPResponse {
        let id = try cartID(request)
        let query = try request.query(allowed: ["limit", "after"])
        let after = try query.integer("after", in: 1...Int.max).map { OrderNumber(rawValue: Int64($0)) }
        // A page follows one of the cart's own orders (its `next` always is one): another
        // cart's order as the cursor would tell a shopper which numbers other carts' orders
        // hold, so it is as unknown as a number no order has.
        if let after, try service.order(after).cartID != id { throw CartError.orderNotFound(after) }
        let page = try service.orders(
            matching: OrderQuery(cartID: id, after: after, limit: try query.integer("limit", in: 1...CartService.maxPageSize)))
        return JSONBody.response(page)
    }

    /// `GET /v1/orders?cart&since&until&sku&limit&after&oldest_first` (admin): a page of
    /// orders, as `cart orders` lists them.
    func listOrders(_ request: APIRequest) throws -> HTTPResponse {
        let query = try request.query(allowed: ["cart", "since", "until", "sku", "limit", "after", "oldest_first"])
        var filter = try Self.orderFilter(query)
        filter.after = try query.integer("after", in: 1...Int.max).map { OrderNumber(rawValue: Int64($0)) }
        filter.limit = try query.integer("limit", in: 1...CartService.maxPageSize)
        return JSONBody.response(try service.orders(matching: filter))
    }

    /// `GET /v1/orders/{number}` (admin): one order with its lines.
    func getOrder(_ request: APIRequest) throws -> HTTPResponse {
        _ = try request.query(allowed: [])
        let text = request.parameter("number")
        guard let number = Int64(text), number >= 1, String(number) == text else {
            let tooLarge = QueryParameters.isTooLargeNumber(text) ? ", which is too large" : ""
            throw APIError.badRequest(
                "invalid_order_number",
                "An order number is a whole number from 1, in digits without leading zeros; got '\(DisplayText.clean(text))'\(tooLarge).")
        }
        return JSONBody.response(try service.order(OrderNumber(rawValue: number)))
    }

    /// `GET /v1/orders/stats?by=total|day|month|product&cart&since&until&sku&utc_offset`
    /// (admin).
    func orderStats(_ request: APIRequest) throws -> HTTPResponse {
        let query = try request.query(allowed: ["by", "cart", "since", "until", "sku", "utc_offset"])
        let by = query.string("by") ?? OrderStatsGrouping.total.rawValue
        guard let grouping = OrderStatsGrouping(rawValue: by) else {
            let values = OrderStatsGrouping.allCases.map(\.rawValue).joined(separator: ", ")
            throw APIError.badRequest(
                "invalid_query_parameter", "The query parameter 'by' must be one of \(values); got '\(DisplayText.clean(by))'.")
        }
        let offset = try query.utcOffset("utc_offset")
        let rows: [OrderStatsRow]
        do {
            rows = try service.orderStats(matching: try Self.orderFilter(query), groupedBy: grouping, utcOffset: offset)
        } catch CartError.amountOverflow {
            // The core's words say only that an amount is too large; here the client can ask
            // for fewer orders, or for smaller groups.
            let finer = grouping == .total || grouping == .month ? ", or group them by day (by=day)" : ""
            throw APIError(
                status: APIError.status(for: .refused), code: CartError.amountOverflow.code,
                message: "The revenue of these orders is too large to add up in 64-bit minor units; "
                    + "ask for fewer with since, until, cart or sku\(finer).")
        }
        return JSONBody.response(
            OrderStatsReport(grouping: grouping, currency: try service.settings().currency, rows: rows, utcOffset: offset ?? .utc))
    }

    /// `GET /v1/orders.csv?cart&since&until&sku&limit&after&oldest_first` (admin): `cart
    /// orders --csv`, streamed; `after` continues an export that stopped at an order.
    func exportOrders(_ request: APIRequest) throws -> HTTPResponse {
        guard request.http.version != "HTTP/1.0" else { throw APIError.http11Required }
        let query = try request.query(allowed: ["cart", "since", "until", "sku", "limit", "after", "oldest_first"])
        var filter = try Self.orderFilter(query)
        filter.after = try query.integer("after", in: 1...Int.max).map { OrderNumber(rawValue: Int64($0)) }
        filter.limit = try query.integer("limit", in: 1...Int.max)
        let export = try OrderExport(service: service, query: filter)
        return HTTPResponse(
            status: 200,
            headers: [
                "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": #"attachment; filename="orders.csv""#,
                "Cache-Control": "no-store",
            ],
            body: .chunks(export.next))
    }

    /// The filters and order shared by the admin order routes. The SKU is taken exactly, as
    /// in a path: the core would trim surrounding space into another SKU.
    private static func orderFilter(_ query: QueryParameters) throws -> OrderQuery {
        OrderQuery(
            cartID: query.string("cart"), placedOnOrAfter: try query.date("since"), placedBefore: try query.date("until"),
            sku: try query.string("sku").map { sku throws(CartError) in try exact(sku: sku) },
            sort: try query.bool("oldest_first") == true ? .oldestFirst : .newestFirst)
    }
}
