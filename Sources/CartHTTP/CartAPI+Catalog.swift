import CartCore
import HTTPServer

/// Health, the OpenAPI document, and the catalog.
extension CartAPI {
    /// The fields of `GET /v1/health`.
    private struct Health: Encodable {
        let status: String
        let store: String
    }

    /// `GET /v1/health`: 200 `{"status":"ok","store":KIND}` once the store answers and can
    /// take writes; a store that answers reads only is not ready (503), since every change
    /// would fail. Nothing is written.
    func health(_ request: APIRequest) throws -> HTTPResponse {
        _ = try request.query(allowed: [])
        _ = try service.repository.changeToken()
        try service.repository.checkWritable()
        return JSONBody.response(Health(status: "ok", store: storeKind))
    }

    /// `GET /v1/settings`: the store's currency and caps, which a storefront needs to offer
    /// only what the rules allow (no + on a line at the per-line cap).
    func settings(_ request: APIRequest) throws -> HTTPResponse {
        _ = try request.query(allowed: [])
        return JSONBody.response(try service.settings())
    }

    /// `GET /v1/openapi.yaml`: the document this build was made with.
    func openAPIDocument(_ request: APIRequest) throws -> HTTPResponse {
        _ = try request.query(allowed: [])
        guard let document = EmbeddedResources.all[Self.openAPIResourceName] else { throw APIError.noRoute }
        return try document.response(to: request.http, contentType: "application/yaml")
    }

    /// The embedded path of the OpenAPI document.
    static let openAPIResourceName = "docs/openapi.yaml"

    /// The OpenAPI document, as embedded at build time.
    public static var openAPIDocument: [UInt8] {
        EmbeddedResources.all[openAPIResourceName]?.bytes ?? []
    }

    /// `GET /v1/products[?all=true&search&limit&after]`: a page of active products by SKU, or
    /// of every product, as `cart products --json` writes it, only those whose SKU or name
    /// holds the `search` text if one is given; `next` continues it. A page holds at most
    /// `CartService.maxPageSize` products. Every storefront reads it again and again (the
    /// shop after each cart event), so it is tagged: a page unchanged since is a 304.
    func listProducts(_ request: APIRequest) throws -> HTTPResponse {
        let query = try request.query(allowed: ["all", "search", "limit", "after"])
        let page = try service.products(
            matching: ProductQuery(
                includeInactive: try query.bool("all") ?? false, text: query.string("search"),
                after: try query.nonEmptyString("after", "a SKU, the 'next' of the previous page"),
                limit: try query.integer("limit", in: 1...CartService.maxPageSize) ?? CartService.maxPageSize))
        return try JSONBody.taggedResponse(page, what: "this page of products", to: request.http)
    }

    /// `GET /v1/products/{sku}`: one product, active or not.
    func getProduct(_ request: APIRequest) throws -> HTTPResponse {
        _ = try request.query(allowed: [])
        return JSONBody.response(try service.product(try Self.sku(request)))
    }

    /// `PUT /v1/products/{sku}` `{"name","price","stock"?,"active"?}`: creates the product
    /// (201, `Location`) or replaces its name and price (200). An absent `stock` or `active`
    /// keeps what is stored (for a new product: untracked, active); `"stock": null` stops
    /// tracking stock. A product as `GET` answers it may be sent back: its `sku` must be the
    /// path's and its `currency` the store's. `If-Match: *` only replaces a product and
    /// `If-None-Match: *` only creates one (412 otherwise).
    func putProduct(_ request: APIRequest) throws -> HTTPResponse {
        let sku = try Self.sku(request)
        _ = try request.query(allowed: [])
        let fields = try request.body(allowed: ["sku", "name", "price", "currency", "stock", "active"], required: true)
        try Self.checkSKU(in: fields, is: sku)
        let currency = try storeCurrency(checking: fields)
        let name = try BodyFields.required(try fields.string("name"), "name")
        let priceText = try BodyFields.required(try fields.string("price"), "price")
        let stock = try fields.nullableInteger("stock")
        let active = try fields.bool("active")
        let price = try Money(parsing: priceText, currency: currency)
        let update = ProductUpdate(name: name, price: price, stock: stock.map(StockLevel.init), isActive: active)
        let exists = try Self.existence(asked: request)
        return try Self.priced(priceText) {
            if exists != false {
                do {
                    return JSONBody.response(try service.updateProduct(sku, with: update))
                } catch CartError.unknownProduct {
                    guard exists == nil else {
                        throw Self.preconditionFailed(
                            "If-Match: * replaces a product that exists; there is no '\(DisplayText.clean(sku))'.")
                    }
                }
            }
            do {
                let product = try service.addProduct(
                    Product(sku: sku, name: name, price: price, isActive: active ?? true, stock: stock ?? nil))
                let location = "/v1/products/" + PathSegment.encoded(product.sku)
                return JSONBody.response(product, status: 201, headers: ["Location": location])
            } catch CartError.productExists {
                guard exists == nil else {
                    throw Self.preconditionFailed("If-None-Match: * creates a product; '\(DisplayText.clean(sku))' exists.")
                }
                // Another request created it since: replace it as if it had been there.
                return JSONBody.response(try service.updateProduct(sku, with: update))
            }
        }
    }

    /// Runs `body`, in which the service may refuse the price sent as `text` (above the cap,
    /// say); that refusal quotes the price as sent, as a refusal to parse it does.
    private static func priced<Result>(_ text: String?, _ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let error as CartError {
            throw text.map(error.quotingAmount) ?? error
        }
    }

    /// Refuses a body whose `sku`, when it has one, is not the path's `sku`.
    private static func checkSKU(in fields: BodyFields, is sku: String) throws {
        if let given = try fields.string("sku"), given != sku {
            throw APIError.badRequest(
                "sku_mismatch", "The body's sku '\(DisplayText.clean(given))' is not the path's, '\(DisplayText.clean(sku))'.")
        }
    }

    /// `PATCH /v1/products/{sku}` `{"name"?,"price"?,"stock"?,"stockChange"?,"active"?}`:
    /// changes what the body names and keeps the rest (404 for an unknown product; `{}` changes
    /// nothing). `stockChange` adds units to the stock, or takes them away when negative, as the
    /// store holds it when the change is made, so what checkouts took meanwhile is kept; it
    /// cannot come with `stock`. As for `PUT`, a product as `GET` answers it may be sent back
    /// (its `sku` the path's, its `currency` the store's). The preconditions are those of `PUT`;
    /// `If-None-Match: *` fails for a product that exists, and one that does not is 404 in any
    /// case.
    func patchProduct(_ request: APIRequest) throws -> HTTPResponse {
        let sku = try Self.sku(request)
        _ = try request.query(allowed: [])
        let fields = try request.body(
            allowed: ["sku", "name", "price", "currency", "stock", "stockChange", "active"], required: true)
        try Self.checkSKU(in: fields, is: sku)
        let stock = try fields.nullableInteger("stock")
        let stockChange = try fields.integer("stockChange")
        if stock != nil, stockChange != nil {
            throw APIError.badRequest(
                "conflicting_fields", "Send 'stock' (the new number of units) or 'stockChange' (units to add or take away), not both.")
        }
        let currency = try storeCurrency(checking: fields)
        let priceText = try fields.string("price")
        let update = ProductUpdate(
            name: try fields.string("name"), price: try priceText.map { try Money(parsing: $0, currency: currency) },
            stock: stock.map(StockLevel.init), stockChange: stockChange, isActive: try fields.bool("active"))
        let exists = try Self.existence(asked: request)
        if exists == false {
            // True for a product that does not exist, which PATCH does not create (404).
            _ = try service.product(sku)
            throw Self.preconditionFailed("If-None-Match: * asks for no product '\(DisplayText.clean(sku))'; PATCH changes one that exists.")
        }
        do {
            // An empty patch is a read: it commits nothing, so no watcher is told of a change.
            guard update != ProductUpdate() else { return JSONBody.response(try service.product(sku)) }
            return JSONBody.response(try Self.priced(priceText) { try service.updateProduct(sku, with: update) })
        } catch CartError.unknownProduct where exists == true {
            throw Self.preconditionFailed("If-Match: * changes a product that exists; there is no '\(DisplayText.clean(sku))'.")
        }
    }

    /// The store's currency, which a product body's `currency`, if given, must name (in any
    /// case, as the CLI's import files may).
    ///
    /// - Throws: 400 `currency_mismatch`, `invalid_field`, or the store's error.
    private func storeCurrency(checking fields: BodyFields) throws -> Currency {
        let currency = try service.settings().currency
        if let given = try fields.string("currency"), !currency.isNamed(by: given) {
            throw APIError.badRequest(
                "currency_mismatch", "Prices in this store are in \(currency.code), not '\(DisplayText.clean(given))'.")
        }
        return currency
    }

    /// What a product `PUT`'s or `PATCH`'s preconditions ask, products carrying no entity tag: true that the
    /// product exists (`If-Match: *`), false that it does not (`If-None-Match: *`, create only),
    /// nil for either. A tag in `If-Match` matches no product; one in `If-None-Match` matches
    /// none either, so it asks nothing.
    ///
    /// - Throws: 400 for a malformed `If-Match` or `If-None-Match`; 412 for an `If-Match` that
    ///   names tags, or for both asks.
    private static func existence(asked request: APIRequest) throws -> Bool? {
        let mustExist = !request.http.headers.values(for: "If-Match").isEmpty
        if mustExist { try EntityTag.refuseTagsOfUntagged(request.http) }
        let mustBeNew = try EntityTag.noneMatchIsWildcard(request.http)
        switch (mustExist, mustBeNew) {
        case (true, true): throw preconditionFailed("If-Match: * and If-None-Match: * together match nothing.")
        case (true, false): return true
        case (false, true): return false
        case (false, false): return nil
        }
    }

    private static func preconditionFailed(_ message: String) -> APIError {
        APIError(status: 412, code: "precondition_failed", message: message)
    }

    /// The SKU in the path, taken exactly.
    static func sku(_ request: APIRequest) throws(CartError) -> String {
        try exact(sku: request.parameter("sku"))
    }

    /// `sku` as the document's pattern writes SKUs: refused with the core's `invalid_sku` when
    /// it starts or ends with white space, which the core would trim into another SKU.
    static func exact(sku: String) throws(CartError) -> String {
        if let first = sku.unicodeScalars.first, let last = sku.unicodeScalars.last,
            first.properties.isWhitespace || last.properties.isWhitespace
        {
            throw .invalidSKU(sku, reason: "it has leading or trailing space")
        }
        return sku
    }
}
