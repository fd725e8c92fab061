import CartCore
import HTTPServer
import Synchronization

/// Carts: minting, reading, changing lines, merging, and the event stream.
extension CartAPI {
    /// `POST /v1/carts`: 201 with a new, empty cart under a freshly minted ID, and its
    /// `Location`. Nothing is stored until the cart first changes.
    func mintCart(_ request: APIRequest) throws -> HTTPResponse {
        _ = try request.query(allowed: [])
        _ = try request.body(allowed: [], required: false)
        let id = minter.mint()
        return try cartResponse(id, status: 201, headers: ["Location": "/v1/carts/" + id])
    }

    /// `GET /v1/carts/{id}`: the cart with its problems and `ETag`; 412 with the cart when
    /// `If-Match` names none of its version.
    func getCart(_ request: APIRequest) throws -> HTTPResponse {
        let id = try cartID(request)
        _ = try request.query(allowed: [])
        let precondition = try EntityTag.precondition(of: request.http)
        let view = try service.cartReport(id)
        switch precondition {
        case .any: break
        case .versions(let versions) where versions.contains(view.cart.version): break
        case .versions, .unmatchable: throw Self.versionConflict(view, precondition)
        }
        return cartResponse(view)
    }

    /// `POST /v1/carts/{id}/items` `{"sku","quantity"?}`: adds units (default 1), merging
    /// into the product's line.
    func addItem(_ request: APIRequest) throws -> HTTPResponse {
        let id = try cartID(request)
        _ = try request.query(allowed: [])
        let fields = try request.body(allowed: ["sku", "quantity"], required: true)
        let sku = try Self.exact(sku: try BodyFields.required(try fields.string("sku"), "sku"))
        let quantity = try fields.quantity(in: StoreSettings.maxLineQuantityRange) ?? 1
        return try change(id, request, .add(sku: sku, quantity: quantity))
    }

    /// `PUT /v1/carts/{id}/items/{sku}` `{"quantity"}`: sets the line; 0 removes it.
    func setItem(_ request: APIRequest) throws -> HTTPResponse {
        let id = try cartID(request)
        let sku = try Self.sku(request)
        _ = try request.query(allowed: [])
        let fields = try request.body(allowed: ["quantity"], required: true)
        let quantity = try BodyFields.required(
            try fields.quantity(in: 0...StoreSettings.maxLineQuantityRange.upperBound), "quantity")
        return try change(id, request, .setQuantity(sku: sku, quantity: quantity))
    }

    /// `POST /v1/carts/{id}/items/{sku}/remove` `{"quantity"?}`: takes units out (default
    /// 1); the line goes at 0.
    func removeItem(_ request: APIRequest) throws -> HTTPResponse {
        let id = try cartID(request)
        let sku = try Self.sku(request)
        _ = try request.query(allowed: [])
        // Malformed before the version is compared, as for the other quantities.
        let quantity = try request.body(allowed: ["quantity"], required: false).quantity(in: 1...Int.max) ?? 1
        return try change(id, request, .remove(sku: sku, quantity: quantity))
    }

    /// `DELETE /v1/carts/{id}/items/{sku}`: removes the line, whatever its quantity.
    func deleteItem(_ request: APIRequest) throws -> HTTPResponse {
        let id = try cartID(request)
        let sku = try Self.sku(request)
        _ = try request.query(allowed: [])
        _ = try request.body(allowed: [], required: false)
        return try change(id, request, .deleteLine(sku: sku))
    }

    /// `DELETE /v1/carts/{id}/items`: removes every line.
    func clearCart(_ request: APIRequest) throws -> HTTPResponse {
        let id = try cartID(request)
        _ = try request.query(allowed: [])
        _ = try request.body(allowed: [], required: false)
        return try change(id, request, .clear)
    }

    /// `POST /v1/carts/{id}/merge` `{"from"}`: moves the lines of `from` (which the request
    /// must be able to reach as well) into this cart under the request's `If-Match`; 200 with
    /// the merge result, 412 with this cart when `If-Match` names another version, 422
    /// `cart_not_found` when `from` is not minted here and was never written.
    func mergeCart(_ request: APIRequest) throws -> HTTPResponse {
        let id = try cartID(request)
        _ = try request.query(allowed: [])
        let fields = try request.body(allowed: ["from"], required: true)
        let source = try reachableCartID(try BodyFields.required(try fields.string("from"), "from"), by: request)
        let expected = try expectedVersion(of: id, request)
        let result: MergeResult
        do {
            // A minted cart reads as an empty cart until it is first written, so a guest cart
            // that was never filled merges nothing, as an emptied one does.
            result = try conflictsAnswered(id, request) {
                try service.merge(
                    from: source, into: id, expectedVersion: expected, unwrittenSourceIsEmpty: minter.isMinted(source))
            }
        } catch CartError.cartNotFound(let missing) {
            // The body names the missing cart, not the path: the resource addressed exists.
            throw APIError(status: 422, code: "cart_not_found", message: CartError.cartNotFound(missing).description)
        }
        return JSONBody.response(
            MergeView(result: result), headers: ["ETag": EntityTag.header(for: result.cart.version)])
    }

    /// `GET /v1/carts/{id}/events`: a `text/event-stream` whose `cart` events carry the cart
    /// JSON, at once and after every change from any process, with a `heartbeat` event at once
    /// and every heartbeat interval, until the client goes or the server stops. At most
    /// ``maxEventStreams`` are open at once.
    func cartEvents(_ request: APIRequest) throws -> HTTPResponse {
        let id = try cartID(request)
        _ = try request.query(allowed: [])
        let event = Self.cartEvent(try service.cartReport(id).json)
        let stream = try openEventStream()
        // An EventSource reconnects this soon after the server restarts.
        stream.write("retry: 1000\n\n")
        stream.write(event)
        // The first heartbeat comes at once, so that a client learns the interval before it
        // waits on one; the next ones come with every stream's, each interval.
        stream.write(heartbeat)
        events.watch(id, stream: stream, sent: event)
        return .eventStream(stream, headers: ["X-Content-Type-Options": "nosniff"])
    }

    /// A new event stream, counted among the open ones until it ends. A refusal at the cap goes
    /// to the error log as a store failure does, at most one line a window: clients meet a
    /// limit that only the server's operator can raise.
    ///
    /// - Throws: 503 `too_many_streams` with `Retry-After` when ``maxEventStreams`` are open.
    func openEventStream() throws(APIError) -> HTTPStream {
        let reserved = openEventStreams.withLock { open in
            guard open < maxEventStreams else { return false }
            open += 1
            return true
        }
        guard reserved else {
            failures.record(
                "too_many_streams",
                "event streams: refused a new one with 503 too_many_streams: \(maxEventStreams) open, the most this server serves at once")
            var error = APIError(
                status: 503, code: "too_many_streams",
                message: "The server has the most event streams open that it serves at once (\(maxEventStreams)); try again later.")
            // A stream's place frees only when a client leaves, seldom within a second.
            error.headers.set("Retry-After", "10")
            throw error
        }
        let stream = HTTPStream(heartbeat: heartbeat)
        stream.onClose { [weak self] in self?.openEventStreams.withLock { $0 -= 1 } }
        return stream
    }

    /// Makes `change` to cart `id` under the request's `If-Match`, and answers with the cart as
    /// the change left it.
    ///
    /// - Throws: 412 with the current cart when `If-Match` names another version; the
    ///   service's refusal otherwise.
    func change(_ id: String, _ request: APIRequest, _ change: CartChange) throws -> HTTPResponse {
        let expected = try expectedVersion(of: id, request)
        return cartResponse(
            try conflictsAnswered(id, request) {
                try service.applyAndReport(change, to: id, expectedVersion: expected).report
            })
    }

    /// The version `If-Match` names, for the core to check as it changes the cart; nil for
    /// any version. Where no version can match, it is one no cart is at, so the core refuses
    /// the change in its own order of checks (a checkout's replay comes first).
    ///
    /// - Throws: 400 for a malformed `If-Match`.
    func expectedVersion(of id: String, _ request: APIRequest) throws -> Int? {
        switch try EntityTag.precondition(of: request.http) {
        case .any:
            return nil
        case .versions(let versions):
            guard versions.count > 1 else { return versions[0] }
            // The core checks one version in the unit: of several, the one the cart is at now,
            // which the unit checks again, so a change in between is still refused. The report
            // reads a cart with a damaged line too, as the change that mends it must.
            let current = try service.cartReport(id).cart.version
            return versions.contains(current) ? current : Self.unmatchableVersion
        case .unmatchable:
            return Self.unmatchableVersion
        }
    }

    /// A version no cart is at: versions count from 0.
    private static var unmatchableVersion: Int { -1 }

    /// Runs `body`, a change to cart `id` under the version `request`'s `If-Match` names; the
    /// core's version conflict becomes the 412 with the cart as it is now.
    func conflictsAnswered<Result>(_ id: String, _ request: APIRequest, _ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch CartError.versionConflict {
            throw Self.versionConflict(try service.cartReport(id), try EntityTag.precondition(of: request.http))
        }
    }

    /// The 412 for a request whose `If-Match` (`precondition`) names another version than
    /// `view`'s. A weak or non-numeric tag never matches, so the message says so rather than
    /// that the cart changed.
    static func versionConflict(_ view: CartReport, _ precondition: EntityTag.Precondition) -> APIError {
        let version = view.cart.version
        let message: String
        switch precondition {
        case .unmatchable:
            message =
                "The cart is at version \(version); If-Match names no version of it: a weak tag (W/\"\(version)\") or one that is not a version number never matches. Send If-Match: \"\(version)\"."
        case .versions(let versions) where versions.allSatisfy({ $0 > version }):
            message = "The cart is at version \(version); If-Match names only later versions, which it has not reached."
        default:
            message = "The cart is at version \(version); it changed since you read it."
        }
        var error = APIError(status: 412, code: "version_conflict", message: message)
        error.cart = view
        return error
    }

    /// The cart `id` as a JSON response with its `ETag`.
    func cartResponse(_ id: String, status: Int = 200, headers: HTTPHeaders = [:]) throws -> HTTPResponse {
        cartResponse(try service.cartReport(id), status: status, headers: headers)
    }

    /// `view` as a JSON response with its `ETag`.
    func cartResponse(_ view: CartReport, status: Int = 200, headers: HTTPHeaders = [:]) -> HTTPResponse {
        var headers = headers
        // Room for these two and the `Content-Type` that `json` sets.
        headers.reserveCapacity(headers.fields.count + 3)
        headers.set("ETag", EntityTag.header(for: view.cart.version))
        headers.set("Cache-Control", "no-store")
        // Handed over, so that `json` adds its header to this list in place, not to a copy.
        return .json(view.json, status: status, headers: consume headers)
    }
}
