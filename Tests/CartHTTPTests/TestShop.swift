import CartCore
@testable import CartHTTP
import CartSQLite
import CartTestSupport
import StrictJSON
import Testing

/// A cart server on 127.0.0.1, port 0, over a fresh SQLite file with a small catalog, driven
/// over real sockets: apple 0.50 (stock untracked), banana 0.25 (5 in stock), pear 1.00 (not
/// for sale).
final class TestShop: Sendable {
    /// The admin token test shops start with unless told otherwise.
    static let token = "test-admin-token-0123456789"

    let directory: TemporaryDirectory
    let path: String
    let service: CartService
    let server: CartHTTPServer
    let accessLog = Recorder<String>()
    let errorLog = Recorder<String>()

    init(
        adminToken: String? = TestShop.token, settings: StoreSettings = .defaults,
        adjust: (inout CartHTTPConfiguration) -> Void = { _ in }
    ) throws {
        directory = try TemporaryDirectory()
        path = directory.path("shop.sqlite3")
        service = CartService(repository: try SQLiteCartRepository(path: path, initialSettings: settings))
        let usd = Currency.usd
        try service.importProducts([
            Product(sku: "apple", name: "Apple", price: Money(minorUnits: 50, currency: usd)),
            Product(sku: "banana", name: "Banana", price: Money(minorUnits: 25, currency: usd), stock: 5),
        ])
        try service.addProduct(Product(sku: "pear", name: "Pear", price: Money(minorUnits: 100, currency: usd), isActive: false))
        let accessLog = accessLog
        let errorLog = errorLog
        var configuration = CartHTTPConfiguration(
            port: 0, adminToken: adminToken, storeKind: "sqlite", eventPollInterval: .milliseconds(20),
            accessLog: { accessLog.record($0) }, errorLog: { errorLog.record($0) })
        adjust(&configuration)
        server = try CartHTTPServer(service: service, configuration: configuration)
    }

    deinit {
        server.stop()
    }

    /// The Host header a loopback client sends.
    var host: String { server.authority }

    /// One request on a new connection: `json` as a body of `contentType`, `admin` adds
    /// the bearer token, `headers` are more header lines, `version` the request line's. An
    /// error answer must carry a code that `ErrorDetail.code` in the OpenAPI document lists.
    func send(
        _ method: String, _ target: String, json: String? = nil, contentType: String = "application/json",
        headers: [String] = [], admin: Bool = false, version: String = "HTTP/1.1"
    ) throws -> TestResponse {
        let connection = try TestConnection(port: server.port)
        var lines = headers
        if json != nil { lines.append("Content-Type: \(contentType)") }
        if admin { lines.append("Authorization: Bearer \(Self.token)") }
        lines.append("Connection: close")
        var request = "\(method) \(target) \(version)\r\nHost: \(host)\r\n"
        for line in lines { request += line + "\r\n" }
        if let json { request += "Content-Length: \(json.utf8.count)\r\n" }
        connection.send(request + "\r\n" + (json ?? ""))
        let response = try connection.readResponse(bodyExpected: method != "HEAD")
        if let code = response.errorCode {
            let documented = OpenAPIDocumentTests.errorCodes.contains(code)
            #expect(documented, "\(method) \(target) answered '\(code)', which the document does not list")
        }
        if let route = Self.route(method, target) {
            let documented = OpenAPIDocumentTests.statuses[route.operationID]?.contains(response.status) == true
            #expect(documented, "\(method) \(target) answered \(response.status), which \(route.operationID) does not list")
        }
        return response
    }

    /// The route that answers `method` on `target`, if one does: its statuses are the
    /// document's to list. A path no route takes, or a method none of its routes takes, is
    /// the server's 404 or 405, which no operation lists.
    static func route(_ method: String, _ target: String) -> CartRoute? {
        let path = target.prefix { $0 != "?" }
        guard path.hasPrefix("/v1/") else { return nil }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        return try? CartAPI.route(method, segments).0
    }

    /// A cart minted by the server.
    func mint() throws -> String {
        let response = try send("POST", "/v1/carts")
        guard response.status == 201, let id = try response.json()["cart"]?.string else {
            throw TestConnection.Failure(description: "minting answered \(response.status): \(response.text)")
        }
        return id
    }

    /// A minted cart holding `lines`, added through the service.
    func cart(with lines: [(String, Int)]) throws -> String {
        let id = try mint()
        for (sku, quantity) in lines { try service.add(sku, quantity: quantity, to: id) }
        return id
    }

    /// What a refused request must leave as it was: products, carts and orders.
    func snapshot() throws -> StoreSnapshot {
        StoreSnapshot(
            products: try service.products(includeInactive: true), carts: try service.listCarts(),
            orders: try service.orders(matching: OrderQuery(limit: 10_000)).orders)
    }
}

/// Everything a store holds, for checking that refused requests change nothing.
struct StoreSnapshot: Equatable {
    let products: [Product]
    let carts: [CartSummary]
    let orders: [Order]
}

extension TestResponse {
    /// The body as JSON.
    func json() throws -> JSONValue {
        try JSONReader.parse(body, maxDepth: 64)
    }

    /// The error code of an error body, if it is one.
    var errorCode: String? {
        (try? json())?["error"]?["code"]?.string
    }

    /// The message of an error body, if it is one.
    var errorMessage: String? {
        (try? json())?["error"]?["message"]?.string
    }
}

extension JSONValue {
    /// The element at `index` of an array.
    subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    var string: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    var int: Int? {
        guard case .number(let text) = self else { return nil }
        return Int(text)
    }

    var bool: Bool? {
        guard case .bool(let flag) = self else { return nil }
        return flag
    }

    var array: [JSONValue]? {
        guard case .array(let elements) = self else { return nil }
        return elements
    }
}
