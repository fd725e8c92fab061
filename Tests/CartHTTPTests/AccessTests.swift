import CartCore
@testable import CartHTTP
import CartInMemory
import CartSQLite
import CartTestSupport
import Foundation
import HTTPServer
import StrictJSON
import Testing

@Suite("Access: the admin token, minted carts, loopback")
struct AccessTests {
    /// One request of each admin route.
    static let adminRequests: [(String, String, String?)] = [
        ("PUT", "/v1/products/kiwi", #"{"name":"Kiwi","price":"1"}"#), ("PATCH", "/v1/products/apple", #"{"price":"1"}"#),
        ("GET", "/v1/orders", nil), ("GET", "/v1/orders/1", nil), ("GET", "/v1/orders/stats", nil),
        ("GET", "/v1/orders.csv", nil),
    ]

    @Test("admin routes need the token: 401 with WWW-Authenticate without it or with a wrong one", arguments: adminRequests.indices)
    func adminRoutes(_ index: Int) throws {
        let (method, target, body) = Self.adminRequests[index]
        let shop = try TestShop()
        let missing = try shop.send(method, target, json: body)
        #expect(missing.status == 401)
        #expect(missing.errorCode == "unauthorized")
        #expect(missing.header("WWW-Authenticate") == #"Bearer realm="cart""#)
        let wrong = try shop.send(method, target, json: body, headers: ["Authorization: Bearer \(TestShop.token)x"])
        #expect(wrong.status == 401)
        #expect(wrong.errorCode == "invalid_token")
        #expect(wrong.header("WWW-Authenticate") == #"Bearer realm="cart", error="invalid_token""#)
        for other in ["Basic YWRtaW46YWRtaW4=", "Bearer", "Bearer   "] {
            let refused = try shop.send(method, target, json: body, headers: ["Authorization: \(other)"])
            #expect(refused.errorCode == "unauthorized")
            #expect(refused.errorMessage?.hasSuffix("(the Authorization header sent holds no bearer token).") == true, "\(refused.text)")
        }
        let admitted = try shop.send(method, target, json: body, headers: ["Authorization: bearer  \(TestShop.token)"])
        #expect(admitted.status != 401)
        #expect(try shop.service.counts().products == (index == 0 ? 4 : 3))
    }

    @Test("a token sent in the query is not read, the 401 says so, and the access log does not hold it")
    func tokenInQuery() throws {
        let shop = try TestShop()
        let refused = try shop.send("GET", "/v1/orders?access_token=\(TestShop.token)")
        #expect(refused.status == 401)
        #expect(refused.errorMessage?.contains("a token in the query is not read") == true, "\(refused.text)")
        // The line is written after the response is sent, on the connection's thread.
        for _ in 0..<2000 where shop.accessLog.all.isEmpty { pause(milliseconds: 5) }
        let logged = shop.accessLog.all.joined(separator: "\n")
        #expect(logged.contains("/v1/orders?access_token=REDACTED"), "\(logged)")
        #expect(!logged.contains(TestShop.token))
    }

    @Test(
        "a query parameter whose name does not decode has its value kept out of the access log, which cannot tell it is no token",
        arguments: ["acc%zzess_token", "%61ccess_token%00", "access%5Ftoken%FF", "tok%zzen"])
    func undecodableNameInQuery(_ name: String) throws {
        let shop = try TestShop()
        _ = try shop.send("GET", "/v1/orders?\(name)=\(TestShop.token)")
        for _ in 0..<2000 where shop.accessLog.all.isEmpty { pause(milliseconds: 5) }
        let logged = shop.accessLog.all.joined(separator: "\n")
        #expect(logged.contains("/v1/orders?\(name)=REDACTED"), "\(logged)")
        #expect(!logged.contains(TestShop.token))
    }

    @Test("the storefront reaches minted carts only; other carts need the token")
    func mintedCartsOnly() throws {
        let shop = try TestShop()
        try shop.service.add("apple", to: "alice")
        let minted = try shop.mint()
        let forged = String(minted.dropLast()) + (minted.last == "0" ? "1" : "0")
        for id in ["alice", "default", forged, minted.uppercased(), CartIDMinter.prefix + String(repeating: "0", count: 64)] {
            for (method, path, body) in [("GET", "", nil), ("POST", "/items", #"{"sku":"apple"}"#), ("GET", "/events", nil),
                ("POST", "/checkout", nil), ("GET", "/orders", nil)] as [(String, String, String?)] {
                let response = try shop.send(method, "/v1/carts/\(id)\(path)", json: body, headers: ["Idempotency-Key: k"])
                #expect(response.status == 401, "\(method) \(id)\(path)")
                #expect(response.errorMessage?.contains("did not mint cart '\(id)'; a storefront starts a new cart with POST /v1/carts") == true)
            }
        }
        let merge = try shop.send("POST", "/v1/carts/\(minted)/merge", json: #"{"from":"alice"}"#)
        #expect(merge.status == 401)
        #expect(try shop.service.cart("alice").totalItems == 1)
        let admin = try shop.send("GET", "/v1/carts/alice", admin: true)
        #expect(admin.status == 200)
        #expect(try admin.json()["totalItems"]?.int == 1)
        #expect(try shop.send("GET", "/v1/carts/\(minted)").status == 200)
    }

    @Test("a wrong bearer token is refused on every route, a repeated Authorization is malformed")
    func wrongTokenEverywhere() throws {
        let shop = try TestShop()
        let minted = try shop.mint()
        let wrong = "Authorization: Bearer \(TestShop.token)x"
        for (method, target, body) in [("GET", "/v1/products", nil), ("GET", "/v1/carts/\(minted)", nil),
            ("POST", "/v1/carts/\(minted)/items", #"{"sku":"apple"}"#), ("PUT", "/v1/products/kiwi", #"{"name":"Kiwi","price":"1"}"#)]
            as [(String, String, String?)] {
            let refused = try shop.send(method, target, json: body, headers: [wrong])
            #expect(refused.status == 401, "\(method) \(target)")
            #expect(refused.errorCode == "invalid_token")
            let token = "Authorization: Bearer \(TestShop.token)"
            let twice = try shop.send(method, target, json: body, headers: [token, token])
            #expect(twice.status == 400, "\(method) \(target)")
            #expect(twice.errorCode == "invalid_header")
        }
        #expect(try shop.service.cart(minted).totalItems == 0)
        #expect(try shop.service.counts().products == 3)
        // A scheme other than Bearer is no token at all: the storefront stays open to it.
        #expect(try shop.send("GET", "/v1/carts/\(minted)", headers: ["Authorization: Basic YWRtaW46YWRtaW4="]).status == 200)
    }

    @Test("without a token every route is open on loopback")
    func noToken() throws {
        let shop = try TestShop(adminToken: nil)
        try shop.service.add("apple", to: "alice")
        #expect(try shop.send("GET", "/v1/carts/alice").status == 200)
        #expect(try shop.send("GET", "/v1/orders").status == 200)
        #expect(try shop.send("PUT", "/v1/products/kiwi", json: #"{"name":"Kiwi","price":"1"}"#).status == 201)
    }

    @Test("without a token the server refuses to listen beyond loopback", arguments: ["0.0.0.0", "::", "[::]", "192.168.1.10"])
    func refusesBeyondLoopback(_ host: String) throws {
        let service = CartService(repository: InMemoryCartRepository())
        #expect(throws: CartHTTPServerError.adminTokenRequired(host: host)) {
            try CartHTTPServer(service: service, configuration: CartHTTPConfiguration(host: host, port: 0))
        }
    }

    @Test("a host that does not resolve is refused as such, with a token or without", arguments: [nil, String(repeating: "t", count: 32)])
    func unresolvableHost(_ token: String?) throws {
        let service = CartService(repository: InMemoryCartRepository())
        let host = "no-such-host.invalid"
        #expect(throws: CartHTTPServerError.server(.invalidHost(host))) {
            try CartHTTPServer(service: service, configuration: CartHTTPConfiguration(host: host, port: 0, adminToken: token))
        }
    }

    @Test(
        "an API made without a server refuses an event poll interval outside 10 ms to 60 s, as the server does",
        arguments: [Duration.zero, .milliseconds(9), .seconds(61), .seconds(Int64.max)])
    func pollIntervalRange(_ interval: Duration) throws {
        let service = CartService(repository: InMemoryCartRepository())
        let configuration = CartHTTPConfiguration(port: 0, storeKind: "memory", eventPollInterval: interval)
        #expect(throws: CartHTTPServerError.self) { try CartAPI(service: service, configuration: configuration) }
        #expect(throws: CartHTTPServerError.self) { try CartHTTPServer(service: service, configuration: configuration) }
    }

    @Test("loopback is 127.0.0.0/8, ::1 and localhost, written as such")
    func loopbackNames() {
        for host in ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost", "LOCALHOST", "localhost."] {
            #expect(CartHTTPConfiguration.isLoopback(host), "\(host)")
        }
        for host in ["0.0.0.0", "::", "128.0.0.1", "127.0.0.01", "127.0.0", "localhost.example.org", "::ffff:127.0.0.1", "", "localhost.."] {
            #expect(!CartHTTPConfiguration.isLoopback(host), "\(host)")
        }
    }

    @Test("an admin token must be long and printable", arguments: ["short", "with spaces in the middle", "tab\there-0123456789", "é-0123456789abcdef"])
    func weakTokens(_ token: String) throws {
        let service = CartService(repository: InMemoryCartRepository())
        #expect(throws: CartHTTPServerError.self) {
            try CartHTTPServer(service: service, configuration: CartHTTPConfiguration(port: 0, adminToken: token))
        }
    }

    @Test("a token too short is refused with its length in words that fit the count")
    func shortTokenLength() {
        for (token, words) in [("", "it has 0 characters;"), ("x", "it has 1 character;"), ("xy", "it has 2 characters;")] {
            do {
                _ = try AdminToken(token)
                Issue.record("'\(token)' was taken")
            } catch {
                #expect("\(error)".contains(words), "\(error)")
            }
        }
    }

    @Test("on loopback, a request for another host name is 421: a page elsewhere cannot rebind its name to the server")
    func rebinding() throws {
        let shop = try TestShop(adminToken: nil)
        for host in ["evil.example:\(shop.server.port)", "evil.example", "127.0.0.1.evil.example"] {
            let connection = try TestConnection(port: shop.server.port)
            connection.send(rawRequest("GET", "/v1/products", host: host))
            let response = try connection.readResponse()
            #expect(response.status == 421, "\(host)")
            #expect(response.errorCode == "misdirected_request")
        }
        for host in ["localhost:\(shop.server.port)", "127.0.0.1", "[::1]:80"] {
            let connection = try TestConnection(port: shop.server.port)
            connection.send(rawRequest("GET", "/v1/products", host: host))
            #expect(try connection.readResponse().status == 200, "\(host)")
        }
        // An absolute-form target's host stands for Host (RFC 9112 §3.2.2).
        for (target, host, status) in [
            ("http://evil.example/v1/products", "127.0.0.1", 421), ("http://127.0.0.1/v1/products", "evil.example", 200),
        ] {
            let connection = try TestConnection(port: shop.server.port)
            connection.send(rawRequest("GET", target, host: host))
            #expect(try connection.readResponse().status == status, "\(target)")
        }
    }

    @Test("a Host that is not a host and port, or two of them, is 400 on every server; unusual valid ones pass")
    func malformedHost() throws {
        for shop in [try TestShop(), try TestShop(adminToken: nil)] {
            for host in ["a b", "u@127.0.0.1", "[::1", "[::1]junk", "[]", "127.0.0.1:abc", "127.0.0.1:99999", "127.0.0.1:123456", ":80", "<x>"] {
                let connection = try TestConnection(port: shop.server.port)
                connection.send(rawRequest("GET", "/v1/health", host: host))
                let response = try connection.readResponse()
                #expect(response.status == 400 && response.errorCode == "invalid_host", "\(host)")
            }
            let twice = try TestConnection(port: shop.server.port)
            twice.send(rawRequest("GET", "/v1/health", host: "127.0.0.1", headers: ["Host: 127.0.0.1"]))
            // libmicrohttpd refuses this one itself.
            #expect(try twice.readResponse().status == 400)
            for host in ["127.0.0.1:", "[::1]:\(shop.server.port)", "localhost:0", "LOCALHOST"] {
                let connection = try TestConnection(port: shop.server.port)
                connection.send(rawRequest("GET", "/v1/health", host: host))
                #expect(try connection.readResponse().status == 200, "\(host)")
            }
        }
    }

    @Test("a change a browser sends for a page of another origin is 403 and changes nothing; the same origin's passes")
    func crossOriginChanges() throws {
        let shop = try TestShop(adminToken: nil)
        try shop.service.add("apple", quantity: 8, to: "alice")
        let before = try shop.snapshot()
        let refused = [
            ["Sec-Fetch-Site: cross-site"], ["Sec-Fetch-Site: same-site"],
            ["Sec-Fetch-Site: cross-site", "Origin: http://\(shop.host)"],
        ]
        for headers in refused {
            // A POST without a body: what a form or a no-cors fetch sends without a preflight.
            let response = try shop.send("POST", "/v1/carts/alice/items/apple/remove", headers: headers)
            #expect(response.status == 403 && response.errorCode == "cross_origin_request", "\(headers) \(response)")
            let put = try shop.send("PUT", "/v1/carts/alice/items/apple", json: #"{"quantity":1}"#, headers: headers)
            #expect(put.status == 403, "\(headers) \(put)")
        }
        // Two values are refused whatever they say: a proxy in front could read the other one.
        for sites in [["same-origin", "cross-site"], ["none", "same-origin"]] {
            let response = try shop.send(
                "POST", "/v1/carts/alice/items/apple/remove", headers: sites.map { "Sec-Fetch-Site: \($0)" })
            #expect(response.status == 400 && response.errorCode == "invalid_header", "\(sites) \(response)")
        }
        #expect(try shop.snapshot() == before)
        // Reads are not refused: their answers are not readable across origins anyway.
        #expect(try shop.send("GET", "/v1/carts/alice", headers: ["Sec-Fetch-Site: cross-site"]).status == 200)
        for headers in [
            [], ["Sec-Fetch-Site: same-origin"], ["Origin: http://\(shop.host)"], ["Sec-Fetch-Site: none"],
            // Field values are read without the spaces and tabs around them.
            ["Sec-Fetch-Site: same-origin \t"], ["Sec-Fetch-Site:none "], ["Origin: http://\(shop.host) "],
        ] {
            let response = try shop.send("POST", "/v1/carts/alice/items/apple/remove", headers: headers)
            #expect(response.status == 200, "\(headers) \(response)")
        }
        #expect(try shop.service.cart("alice").lines.first?.quantity == 1)
    }

    @Test("on loopback without a token, a change whose Origin names no loopback host is 403, as old browsers send no Sec-Fetch-Site")
    func crossOriginWithoutFetchMetadata() throws {
        let shop = try TestShop(adminToken: nil)
        try shop.service.add("apple", quantity: 5, to: "alice")
        let before = try shop.snapshot()
        for origin in [
            "http://evil.example", "https://evil.example:8080", "null", "http://127.0.0.1.evil.example", "http://localhost@evil.example",
            "http://127.0.0.1:8080/", "127.0.0.1", "",
        ] {
            let response = try shop.send("POST", "/v1/carts/alice/items/apple/remove", headers: ["Origin: \(origin)"])
            #expect(response.status == 403 && response.errorCode == "cross_origin_request", "\(origin) \(response)")
        }
        // Two values are refused whatever they say: a proxy in front could read the other one.
        let twice = try shop.send(
            "POST", "/v1/carts/alice/items/apple/remove", headers: ["Origin: http://\(shop.host)", "Origin: http://evil.example"])
        #expect(twice.status == 400 && twice.errorCode == "invalid_header", "\(twice)")
        #expect(try shop.snapshot() == before)
        // Reads are not refused: their answers are not readable across origins anyway.
        #expect(try shop.send("GET", "/v1/carts/alice", headers: ["Origin: http://evil.example"]).status == 200)
        for origin in ["http://\(shop.host)", "http://localhost:\(shop.server.port)", "http://[::1]", "https://LOCALHOST"] {
            let response = try shop.send("POST", "/v1/carts/alice/items/apple/remove", headers: ["Origin: \(origin)"])
            #expect(response.status == 200, "\(origin) \(response)")
        }
        #expect(try shop.service.cart("alice").lines.first?.quantity == 1)
    }

    @Test("a change whose Sec-Fetch-Site says same-origin passes whatever its Origin says (null under no-referrer)")
    func fetchMetadataDecides() throws {
        let shop = try TestShop(adminToken: nil)
        try shop.service.add("apple", quantity: 5, to: "alice")
        for origin in ["null", "http://evil.example"] {
            let response = try shop.send(
                "POST", "/v1/carts/alice/items/apple/remove", headers: ["Sec-Fetch-Site: same-origin", "Origin: \(origin)"])
            #expect(response.status == 200, "\(origin) \(response)")
        }
        let crossSite = try shop.send(
            "POST", "/v1/carts/alice/items/apple/remove", headers: ["Sec-Fetch-Site: cross-site", "Origin: http://\(shop.host)"])
        #expect(crossSite.status == 403 && crossSite.errorCode == "cross_origin_request", "\(crossSite)")
        #expect(try shop.service.cart("alice").lines.first?.quantity == 3)
    }

    @Test("with an admin token Origin decides nothing: behind a proxy the shop's own requests carry the public origin")
    func proxiedOrigin() throws {
        let shop = try TestShop()
        let cart = try shop.cart(with: [("apple", 5)])
        for headers in [["Origin: https://shop.example"], ["Origin: null"], ["Origin: https://shop.example", "Origin: null"]] {
            let response = try shop.send("POST", "/v1/carts/\(cart)/items/apple/remove", headers: headers)
            #expect(response.status == 200, "\(headers) \(response)")
        }
        #expect(try shop.send("POST", "/v1/carts/\(cart)/items/apple/remove", headers: ["Sec-Fetch-Site: cross-site"]).status == 403)
    }

    @Test("with an admin token, a loopback server answers any host name, as behind a reverse proxy")
    func proxiedHost() throws {
        let shop = try TestShop()
        for host in ["shop.example.com", "shop.example.com:443"] {
            let connection = try TestConnection(port: shop.server.port)
            connection.send(rawRequest("GET", "/v1/products", host: host))
            #expect(try connection.readResponse().status == 200, "\(host)")
            let page = try TestConnection(port: shop.server.port)
            page.send(rawRequest("GET", "/", host: host))
            #expect(try page.readResponse().status == 200, "\(host)")
        }
        let connection = try TestConnection(port: shop.server.port)
        connection.send(rawRequest("GET", "/v1/orders", host: "shop.example.com"))
        #expect(try connection.readResponse().status == 401)
    }

    @Test("IDs minted before a restart, or by another server of the same store, are recognised; another store's are not")
    func mintedAcrossServers() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("shop.sqlite3")
        let one = CartIDMinter(key: CartIDKey(storeSecret: try CartService(repository: SQLiteCartRepository(path: path)).storeSecret()))
        let two = CartIDMinter(key: CartIDKey(storeSecret: try CartService(repository: SQLiteCartRepository(path: path)).storeSecret()))
        let elsewhere = CartIDMinter(key: CartIDKey(storeSecret: try CartService(repository: SQLiteCartRepository.inMemory()).storeSecret()))
        let id = one.mint()
        #expect(two.isMinted(id))
        #expect(!elsewhere.isMinted(id))
        #expect(!CartIDMinter(key: .random()).isMinted(id))
        #expect(id.utf8.count == CartIDMinter.length)
        #expect(id.hasPrefix(CartIDMinter.prefix))
        #expect(Set((0..<100).map { _ in one.mint() }).count == 100)
    }

    @Test("an ID changed in any one character, or cut, or made longer, is not recognised")
    func tamperedIDs() {
        let minter = CartIDMinter(key: .random())
        let id = Array(minter.mint().utf8)
        #expect(minter.isMinted(String(decoding: id, as: UTF8.self)))
        for index in id.indices {
            for replacement in [UInt8(ascii: "0"), UInt8(ascii: "f"), UInt8(ascii: "A"), UInt8(ascii: "g")]
            where replacement != id[index] {
                var changed = id
                changed[index] = replacement
                #expect(!minter.isMinted(String(decoding: changed, as: UTF8.self)), "\(index)")
            }
        }
        let text = String(decoding: id, as: UTF8.self)
        for variant in [String(text.dropLast()), text + "0", text.uppercased(), "", CartIDMinter.prefix] {
            #expect(!minter.isMinted(variant), "\(variant)")
        }
    }

    @Test("a key derived from a store secret differs from the secret; a short key is refused")
    func keys() throws {
        let secret = StoreSecret.random()
        #expect(CartIDKey(storeSecret: secret).bytes.count == CartIDKey.minimumLength)
        #expect(CartIDKey(storeSecret: secret).bytes != secret.bytes)
        #expect(throws: CartIDKeyError.tooShort(16)) { try CartIDKey(bytes: Array(repeating: 1, count: 16)) }
    }
}
