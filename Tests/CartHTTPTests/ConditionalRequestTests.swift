import CartCore
@testable import CartHTTP
import CartTestSupport
import StrictJSON
import Testing

@Suite("ETag and If-Match on every cart change")
struct ConditionalRequestTests {
    /// Each cart change, as method, path under the cart, and body.
    static let changes: [(String, String, String?)] = [
        ("POST", "/items", #"{"sku":"apple"}"#),
        ("PUT", "/items/apple", #"{"quantity":4}"#),
        ("POST", "/items/apple/remove", nil),
        ("DELETE", "/items/apple", nil),
        ("DELETE", "/items", nil),
    ]

    @Test("a change at the version If-Match names applies", arguments: changes.indices)
    func matching(_ index: Int) throws {
        let (method, path, body) = Self.changes[index]
        let shop = try TestShop()
        let id = try shop.cart(with: [("apple", 2)])
        let response = try shop.send(method, "/v1/carts/\(id)\(path)", json: body, headers: [#"If-Match: "1""#])
        #expect(response.status == 200)
        #expect(response.header("ETag") == "\"2\"")
    }

    @Test(
        "a change under a stale, weak or foreign If-Match is 412 with the current cart, and changes nothing",
        arguments: changes.indices, [#""0""#, #""2""#, #"W/"1""#, #""01""#, #""abc""#])
    func stale(_ index: Int, _ tag: String) throws {
        let (method, path, body) = Self.changes[index]
        let shop = try TestShop()
        let id = try shop.cart(with: [("apple", 2)])
        let before = try shop.snapshot()
        let response = try shop.send(method, "/v1/carts/\(id)\(path)", json: body, headers: ["If-Match: \(tag)"])
        #expect(response.status == 412)
        #expect(response.errorCode == "version_conflict")
        #expect(response.header("ETag") == "\"1\"")
        #expect(try response.json()["cart"]?["version"]?.int == 1)
        #expect(try response.json()["cart"]?["items"]?[0]?["quantity"]?.int == 2)
        // A tag that can never match is named as such, not as a change since it was read.
        let neverMatches = tag.hasPrefix("W/") || tag == #""01""# || tag == #""abc""#
        #expect(response.errorMessage?.contains("never matches") == neverMatches, "\(response.errorMessage ?? "")")
        // The cart is at version 1: "0" names an earlier version, "2" one it has not reached.
        #expect(response.errorMessage?.contains("changed since you read it") == (tag == #""0""#))
        #expect(response.errorMessage?.contains("only later versions, which it has not reached") == (tag == #""2""#))
        #expect(try shop.snapshot() == before)
    }

    @Test("If-Match: * applies whatever the version; a malformed list or tag is 400")
    func wildcardAndMalformed() throws {
        let shop = try TestShop()
        let id = try shop.cart(with: [("apple", 2)])
        #expect(try shop.send("DELETE", "/v1/carts/\(id)/items/apple", headers: ["If-Match: *"]).status == 200)
        for tag in ["1", #""1"#, "W/1", #""1"x"#, #""1" "2""#, #"*, "2""#, #""1";"2""#, "", " , "] {
            let response = try shop.send("POST", "/v1/carts/\(id)/items", json: #"{"sku":"apple"}"#, headers: ["If-Match: \(tag)"])
            #expect(response.errorCode == "invalid_if_match", "\(tag)")
        }
        #expect(try shop.send("GET", "/v1/carts/\(id)").header("ETag") == #""2""#)
    }

    @Test("a list of tags, on one line or several, applies when one is the cart's version")
    func tagLists() throws {
        let shop = try TestShop()
        let id = try shop.cart(with: [("apple", 2)])
        let add = { (headers: [String]) in try shop.send("POST", "/v1/carts/\(id)/items", json: #"{"sku":"apple"}"#, headers: headers) }
        #expect(try add([#"If-Match: "7", W/"1", "1""#]).status == 200)
        #expect(try add([#"If-Match: "9""#, #"If-Match: ,"2" ,"#]).status == 200)
        let stale = try add([#"If-Match: "1", "2", W/"3""#])
        #expect(stale.status == 412)
        #expect(stale.header("ETag") == #""3""#)
        #expect(try add([#"If-Match: "3", "3""#]).status == 200)
        #expect(try shop.send("GET", "/v1/carts/\(id)").header("ETag") == #""4""#)
    }

    @Test("checkout honours If-Match, and a replay of its key wins over a stale one")
    func checkout() throws {
        let shop = try TestShop()
        let id = try shop.cart(with: [("apple", 2)])
        let stale = try shop.send("POST", "/v1/carts/\(id)/checkout", headers: ["Idempotency-Key: k", #"If-Match: "0""#])
        #expect(stale.status == 412)
        #expect(try shop.service.counts().orders == 0)
        #expect(try shop.send("POST", "/v1/carts/\(id)/checkout", headers: ["Idempotency-Key: k", #"If-Match: "1""#]).status == 201)
        let replay = try shop.send("POST", "/v1/carts/\(id)/checkout", headers: ["Idempotency-Key: k", #"If-Match: "1""#])
        #expect(replay.status == 200)
        #expect(try replay.json()["replayed"]?.bool == true)
        // The checkout emptied the cart (version 2): a retry under any If-Match that names
        // the version it was sent with still hears of its order.
        for tags in [#""1", "7""#, #"W/"1""#, #""x""#] {
            let retry = try shop.send("POST", "/v1/carts/\(id)/checkout", headers: ["Idempotency-Key: k", "If-Match: \(tags)"])
            #expect(retry.status == 200, "If-Match: \(tags)")
            #expect(try retry.json()["replayed"]?.bool == true)
        }
        let other = try shop.send("POST", "/v1/carts/\(id)/checkout", headers: ["Idempotency-Key: k2", #"If-Match: "1", "7""#])
        #expect(other.status == 412)
        #expect(try shop.service.counts().orders == 1)
    }

    @Test("a GET of a cart under an If-Match naming none of its version is 412 with the cart")
    func conditionalGet() throws {
        let shop = try TestShop()
        let id = try shop.cart(with: [("apple", 2)])
        #expect(try shop.send("GET", "/v1/carts/\(id)", headers: [#"If-Match: "1""#]).status == 200)
        #expect(try shop.send("GET", "/v1/carts/\(id)", headers: [#"If-Match: "0", "1""#]).status == 200)
        for tags in [#""2""#, #"W/"1""#] {
            let stale = try shop.send("GET", "/v1/carts/\(id)", headers: ["If-Match: \(tags)"])
            #expect(stale.status == 412, "If-Match: \(tags)")
            #expect(stale.header("ETag") == #""1""#)
            #expect(try stale.json()["cart"]?["version"]?.int == 1)
        }
    }

    @Test("PUT of a product: If-Match: * only replaces, If-None-Match: * only creates, a tag matches nothing")
    func conditionalProductPut() throws {
        let shop = try TestShop()
        let before = try shop.snapshot()
        let put = { (sku: String, headers: [String]) in
            try shop.send("PUT", "/v1/products/\(sku)", json: #"{"name":"Changed","price":"2.00"}"#, headers: headers, admin: true)
        }
        for (sku, header) in [("apple", "If-None-Match: *"), ("ghost", "If-Match: *"), ("apple", #"If-Match: "1""#)] {
            let refused = try put(sku, [header])
            #expect(refused.status == 412, "\(header) on \(sku)")
            #expect(refused.errorCode == "precondition_failed")
        }
        #expect(try put("apple", ["If-Match: *", "If-None-Match: *"]).status == 412)
        for header in ["If-None-Match: ", "If-None-Match: x", #"If-None-Match: *, "1""#, #"If-None-Match: "1"x"#] {
            let malformed = try put("apple", [header])
            #expect(malformed.status == 400, "\(header)")
            #expect(malformed.errorCode == "invalid_if_none_match")
        }
        #expect(try shop.snapshot() == before)
        #expect(try put("apple", ["If-Match: *"]).status == 200)
        #expect(try put("apple", [#"If-None-Match: W/"1", "2""#]).status == 200)
        #expect(try put("ghost", ["If-None-Match: *"]).status == 201)
        #expect(try shop.service.product("ghost").name == "Changed")
    }

    @Test("a route without an ETag refuses an If-Match naming tags, takes *, and keeps its 404")
    func untaggedResources() throws {
        let shop = try TestShop()
        let id = try shop.cart(with: [("apple", 2)])
        let before = try shop.snapshot()
        let reads = [
            "/v1/health", "/v1/settings", "/v1/products", "/v1/products/apple", "/v1/carts/\(id)/orders",
            "/v1/carts/\(id)/events", "/v1/orders", "/v1/orders/stats", "/v1/orders.csv",
        ]
        for path in reads {
            let refused = try shop.send("GET", path, headers: [#"If-Match: "1""#], admin: true)
            #expect(refused.status == 412 && refused.errorCode == "precondition_failed", "\(path) \(refused.status)")
            #expect(try shop.send("GET", path, headers: ["If-Match: 1"], admin: true).errorCode == "invalid_if_match", "\(path)")
        }
        for path in ["/v1/health", "/v1/products", "/v1/products/apple", "/v1/orders"] {
            #expect(try shop.send("GET", path, headers: ["If-Match: *"], admin: true).status == 200, "\(path)")
        }
        // What would be 400, 401 or 404 without the header stays so, streams too.
        #expect(try shop.send("GET", "/v1/products/ghost", headers: [#"If-Match: "1""#]).status == 404)
        #expect(try shop.send("GET", "/v1/orders/7", headers: [#"If-Match: "1""#], admin: true).status == 404)
        #expect(try shop.send("GET", "/v1/carts/alice/events", headers: [#"If-Match: "1""#]).status == 401)
        #expect(try shop.send("GET", "/v1/orders.csv?since=bad", headers: [#"If-Match: "1""#], admin: true).status == 400)
        // Minting refuses before it mints.
        let mint = try shop.send("POST", "/v1/carts", headers: [#"If-Match: "1""#])
        #expect(mint.status == 412 && mint.errorCode == "precondition_failed")
        #expect(mint.header("Location") == nil)
        #expect(try shop.snapshot() == before)
    }

    @Test("every route that may change the store reads If-Match itself; minting stores nothing")
    func changesReadIfMatch() {
        let unread = CartAPI.routes.filter { $0.method != "GET" && !$0.readsIfMatch }.map(\.operationID)
        #expect(unread == ["mintCart"])
    }

    @Test("a cart never written is at version 0, and If-Match \"0\" applies to it")
    func versionZero() throws {
        let shop = try TestShop()
        let id = try shop.mint()
        #expect(try shop.send("GET", "/v1/carts/\(id)").header("ETag") == "\"0\"")
        let response = try shop.send("POST", "/v1/carts/\(id)/items", json: #"{"sku":"apple"}"#, headers: [#"If-Match: "0""#])
        #expect(response.status == 200)
    }
}
