import CartCore
@testable import CartHTTP
import CartTestSupport
import Foundation
import Hashing
import StrictJSON
import Testing

@Suite("Routes: health, the OpenAPI document and the catalog")
struct CatalogRouteTests {
    @Test("health answers ok with the store kind")
    func health() throws {
        let shop = try TestShop()
        let response = try shop.send("GET", "/v1/health")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json")
        #expect(response.text == #"{"status":"ok","store":"sqlite"}"#)
    }

    @Test("settings answers the store's currency and caps, open to everyone")
    func settings() throws {
        let shop = try TestShop()
        #expect(try shop.send("GET", "/v1/settings").text == #"{"currency":"USD","maxLineQuantity":99,"maxLinesPerCart":100}"#)
        try shop.service.updateSettings(maxLineQuantity: 5)
        #expect(try shop.send("GET", "/v1/settings").json()["maxLineQuantity"]?.int == 5)
        #expect(try shop.send("GET", "/v1/settings?x=1").status == 400)
    }

    @Test("the OpenAPI document is served as embedded, with an ETag that answers 304")
    func openAPIDocument() throws {
        let shop = try TestShop()
        let response = try shop.send("GET", "/v1/openapi.yaml")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/yaml")
        #expect(response.body == CartAPI.openAPIDocument)
        #expect(response.text.hasPrefix("openapi: 3.1.0"))
        let tag = try #require(response.header("ETag"))
        let again = try shop.send("GET", "/v1/openapi.yaml", headers: ["If-None-Match: \(tag)"])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        // RFC 9110 §8.6: a 304's Content-Length, if any, is the 200's.
        #expect(again.header("Content-Length") == String(response.body.count))
        let weak = try shop.send("GET", "/v1/openapi.yaml", headers: ["If-None-Match: \"x\", W/\(tag)"])
        #expect(weak.status == 304, "If-None-Match compares weakly")
        #expect(try shop.send("GET", "/v1/openapi.yaml", headers: [#"If-None-Match: "x""#]).status == 200)
    }

    @Test("the OpenAPI document under If-Match: its own tag or * is 200, another tag 412, a malformed list 400")
    func openAPIDocumentIfMatch() throws {
        let shop = try TestShop()
        let tag = try #require(try shop.send("GET", "/v1/openapi.yaml").header("ETag"))
        for header in ["If-Match: \(tag)", "If-Match: *", "If-Match: \"x\", \(tag)"] {
            #expect(try shop.send("GET", "/v1/openapi.yaml", headers: [header]).status == 200, "\(header)")
        }
        // The strong comparison: a weak tag never matches.
        for header in [#"If-Match: "x""#, "If-Match: W/\(tag)"] {
            let refused = try shop.send("GET", "/v1/openapi.yaml", headers: [header])
            #expect(refused.status == 412, "\(header)")
            #expect(try refused.json()["error"]?["code"]?.string == "precondition_failed")
        }
        // If-Match is evaluated first: a failing one is 412 even where If-None-Match would be 304.
        let both = try shop.send("GET", "/v1/openapi.yaml", headers: [#"If-Match: "x""#, "If-None-Match: \(tag)"])
        #expect(both.status == 412)
        for header in ["If-Match: x", "If-None-Match: x"] {
            #expect(try shop.send("GET", "/v1/openapi.yaml", headers: [header]).status == 400, "\(header)")
        }
    }

    @Test("a page of products has an ETag that answers 304 until a product changes, and If-Match compares it")
    func productPageTags() throws {
        let shop = try TestShop()
        let page = try shop.send("GET", "/v1/products")
        #expect(page.status == 200)
        #expect(page.header("Cache-Control") == "no-cache")
        #expect(page.header("Content-Type") == "application/json")
        let tag = try #require(page.header("ETag"))
        #expect(tag == "\"\(SHA256.hex(SHA256.digest(page.body)))\"")
        #expect(tag.utf8.count == 66)
        let unchanged = try shop.send("GET", "/v1/products", headers: ["If-None-Match: \(tag)"])
        #expect(unchanged.status == 304)
        #expect(unchanged.body.isEmpty)
        #expect(unchanged.header("ETag") == tag)
        #expect(unchanged.header("Content-Length") == String(page.body.count))
        // Another page, or the same page after a change, has another tag.
        #expect(try shop.send("GET", "/v1/products?all=true", headers: ["If-None-Match: \(tag)"]).status == 200)
        try shop.service.updateProduct("apple", with: ProductUpdate(stock: StockLevel(3)))
        let changed = try shop.send("GET", "/v1/products", headers: ["If-None-Match: \(tag)"])
        #expect(changed.status == 200)
        #expect(changed.header("ETag") != tag)
        // If-Match: the page's own tag or *, else 412; malformed lists are 400.
        let current = try #require(changed.header("ETag"))
        #expect(try shop.send("GET", "/v1/products", headers: ["If-Match: \(current)"]).status == 200)
        #expect(try shop.send("GET", "/v1/products", headers: ["If-Match: \(tag)"]).status == 412)
        #expect(try shop.send("GET", "/v1/products", headers: ["If-None-Match: x"]).status == 400)
        // A single product has no tag.
        #expect(try shop.send("GET", "/v1/products/apple").header("ETag") == nil)
        // A page larger than a connection's memory for headers is served with its tag.
        try shop.service.importProducts((0..<1000).map {
            ProductImport(sku: "bulk-\($0)", name: "Bulk product \($0)", price: Money(minorUnits: 100 + $0, currency: .usd))
        })
        let large = try shop.send("GET", "/v1/products")
        #expect(large.status == 200)
        #expect(large.body.count > 64 * 1024)
        #expect(large.header("ETag") == "\"\(SHA256.hex(SHA256.digest(large.body)))\"")
    }

    @Test("products lists active products by SKU; all=true adds inactive ones")
    func listProducts() throws {
        let shop = try TestShop()
        let active = try shop.send("GET", "/v1/products").json()
        #expect(active["products"]?.array?.compactMap { $0["sku"]?.string } == ["apple", "banana"])
        let all = try shop.send("GET", "/v1/products?all=true").json()
        #expect(all["products"]?.array?.compactMap { $0["sku"]?.string } == ["apple", "banana", "pear"])
        #expect(all["products"]?[2]?["active"]?.bool == false)
        #expect(active["products"]?[0]?["price"]?.string == "0.50")
        #expect(active["products"]?[1]?["stock"]?.int == 5)
        #expect(active["products"]?[0]?["stock"] == .null)
        #expect(active["next"] == .null)
        // Pages, as `cart products --json` gives them: `next` is the `after` of the next one.
        let first = try shop.send("GET", "/v1/products?all=true&limit=2").json()
        #expect(first["products"]?.array?.compactMap { $0["sku"]?.string } == ["apple", "banana"])
        #expect(first["next"]?.string == "banana")
        let second = try shop.send("GET", "/v1/products?all=true&limit=2&after=banana").json()
        #expect(second["products"]?.array?.compactMap { $0["sku"]?.string } == ["pear"])
        #expect(second["next"] == .null)
        #expect(try shop.send("GET", "/v1/products?limit=0").errorCode == "invalid_query_parameter")
        let emptyAfter = try shop.send("GET", "/v1/products?after=")
        #expect(emptyAfter.errorCode == "invalid_query_parameter")
        #expect(emptyAfter.errorMessage == "The query parameter 'after' must be a SKU, the 'next' of the previous page; got ''.")
        #expect(try shop.send("GET", "/v1/products?limit=10001").errorCode == "invalid_query_parameter")
        // A search, as `cart products --search`: SKU or name, in any case; empty for all.
        func skus(_ target: String) throws -> [String]? { try shop.send("GET", target).json()["products"]?.array?.compactMap { $0["sku"]?.string } }
        #expect(try skus("/v1/products?search=AN") == ["banana"])
        #expect(try skus("/v1/products?search=e&all=true") == ["apple", "pear"])
        #expect(try skus("/v1/products?search=%25") == [])
        #expect(try skus("/v1/products?search=") == ["apple", "banana"])
        #expect(try shop.send("GET", "/v1/products?search=a&search=b").errorCode == "invalid_query_parameter")
    }

    @Test("one product, active or not; an unknown SKU is 404, a SKU with surrounding space 400")
    func getProduct() throws {
        let shop = try TestShop()
        let pear = try shop.send("GET", "/v1/products/pear")
        #expect(pear.status == 200)
        #expect(pear.text == #"{"active":false,"currency":"USD","name":"Pear","price":"1.00","sku":"pear","stock":null}"#)
        let unknown = try shop.send("GET", "/v1/products/plum")
        #expect(unknown.status == 404)
        #expect(unknown.errorCode == "unknown_product")
        #expect(try shop.send("GET", "/v1/products/%20apple").errorCode == "invalid_sku")
        #expect(try shop.send("GET", "/v1/products/a%2Fb").status == 404)
    }

    @Test("PUT creates a product (201, Location) and replaces it (200), keeping stock and flag when absent")
    func putProduct() throws {
        let shop = try TestShop()
        let created = try shop.send("PUT", "/v1/products/kiwi%2F1", json: #"{"name":"Kiwi","price":"0.80","stock":3}"#, admin: true)
        #expect(created.status == 201)
        #expect(created.header("Location") == "/v1/products/kiwi%2F1")
        #expect(try created.json()["sku"]?.string == "kiwi/1")
        let replaced = try shop.send("PUT", "/v1/products/kiwi%2F1", json: #"{"name":"Gold kiwi","price":"0.90"}"#, admin: true)
        #expect(replaced.status == 200)
        #expect(try shop.service.product("kiwi/1") == Product(
            sku: "kiwi/1", name: "Gold kiwi", price: Money(minorUnits: 90, currency: .usd), isActive: true, stock: 3))
        let untracked = try shop.send(
            "PUT", "/v1/products/kiwi%2F1", json: #"{"name":"Kiwi","price":"0.90","stock":null,"active":false}"#, admin: true)
        #expect(untracked.status == 200)
        #expect(try shop.service.product("kiwi/1").stock == nil)
        #expect(try shop.service.product("kiwi/1").isActive == false)
    }

    @Test("a product as GET answers it can be PUT back, changed")
    func getThenPut() throws {
        let shop = try TestShop()
        #expect(try shop.send("PUT", "/v1/products/kiwi", json: #"{"name":"Kiwi","price":"0.80","stock":3}"#, admin: true).status == 201)
        let read = try shop.send("GET", "/v1/products/kiwi")
        let text = String(decoding: read.body, as: UTF8.self).replacingOccurrences(of: "0.80", with: "0.95")
        let written = try shop.send("PUT", "/v1/products/kiwi", json: text, admin: true)
        #expect(written.status == 200, "\(text)")
        #expect(try shop.service.product("kiwi").price == Money(minorUnits: 95, currency: .usd))
        #expect(try shop.service.product("kiwi").stock == 3)
    }

    @Test(
        "PUT refuses a bad product with 400 and stores nothing",
        arguments: [
            (#"{"name":"Kiwi"}"#, "missing_field"),
            (#"{"name":"Kiwi","price":0.8}"#, "invalid_field"),
            (#"{"name":"Kiwi","price":"0.801"}"#, "invalid_amount"),
            (#"{"name":"Kiwi","price":"-1"}"#, "invalid_amount"),
            (#"{"name":"","price":"1"}"#, "invalid_name"),
            (#"{"name":"Kiwi","price":"1","stock":-1}"#, "invalid_stock"),
            (#"{"name":"Kiwi","price":"1","stock":1.5}"#, "invalid_field"),
            (#"{"name":"Kiwi","price":"1","colour":"green"}"#, "unknown_field"),
            (#"{"name":"Kiwi","price":"1000000.01"}"#, "invalid_amount"),
            (#"{"sku":"kiwi2","name":"Kiwi","price":"1"}"#, "sku_mismatch"),
            (#"{"name":"Kiwi","price":"1","currency":"EUR"}"#, "currency_mismatch"),
            (#"["Kiwi"]"#, "not_an_object"),
        ])
    func putProductRefused(body: String, code: String) throws {
        let shop = try TestShop()
        let before = try shop.snapshot()
        let response = try shop.send("PUT", "/v1/products/kiwi", json: body, admin: true)
        #expect(response.status == 400)
        #expect(response.errorCode == code)
        #expect(try shop.snapshot() == before)
    }

    @Test("PATCH changes the fields it names and keeps the rest; {} changes nothing")
    func patchProduct() throws {
        let shop = try TestShop()
        let priced = try shop.send("PATCH", "/v1/products/banana", json: #"{"price":"0.30"}"#, admin: true)
        #expect(priced.status == 200)
        #expect(priced.text == #"{"active":true,"currency":"USD","name":"Banana","price":"0.30","sku":"banana","stock":5}"#)
        let paused = try shop.send("PATCH", "/v1/products/banana", json: #"{"active":false,"name":" Plantain "}"#, admin: true)
        #expect(try paused.json()["name"]?.string == "Plantain")
        #expect(try shop.service.product("banana") == Product(
            sku: "banana", name: "Plantain", price: Money(minorUnits: 30, currency: .usd), isActive: false, stock: 5))
        let untouched = try shop.send("PATCH", "/v1/products/banana", json: "{}", admin: true)
        #expect(untouched.status == 200)
        #expect(try untouched.json()["stock"]?.int == 5)
        #expect(try shop.send("PATCH", "/v1/products/banana", json: #"{"stock":null}"#, admin: true).status == 200)
        #expect(try shop.service.product("banana").stock == nil)
        #expect(try shop.send("PATCH", "/v1/products/banana", json: #"{"stock":7}"#, admin: true).status == 200)
        #expect(try shop.service.product("banana").stock == 7)
        // A product as GET answers it may be sent back with a field changed.
        var read = try shop.send("GET", "/v1/products/banana").text
        read = read.replacing(#""price":"0.30""#, with: #""price":"0.35""#)
        let sentBack = try shop.send("PATCH", "/v1/products/banana", json: read, admin: true)
        #expect(sentBack.status == 200, "\(sentBack.text)")
        #expect(try shop.service.product("banana").price == Money(minorUnits: 35, currency: .usd))
        // An empty patch commits nothing, so watchers are not told of a change.
        let token = try shop.service.repository.changeToken()
        #expect(try shop.send("PATCH", "/v1/products/banana", json: "{}", admin: true).status == 200)
        #expect(try shop.service.repository.changeToken() == token)
    }

    @Test("PATCH stockChange adds to the stock as it is when the change is made, so checkouts meanwhile are kept")
    func patchStockChange() throws {
        let shop = try TestShop()
        let cart = try shop.cart(with: [("banana", 2)])
        _ = try shop.service.checkout(cart, idempotencyKey: "k1")
        let delivered = try shop.send("PATCH", "/v1/products/banana", json: #"{"stockChange":10}"#, admin: true)
        #expect(delivered.status == 200)
        #expect(try delivered.json()["stock"]?.int == 13)
        #expect(try shop.send("PATCH", "/v1/products/banana", json: #"{"stockChange":-13}"#, admin: true).status == 200)
        #expect(try shop.service.product("banana").stock == 0)
        // A change of a stock that is not counted is refused in words that fit its sign.
        let consequences = ["units cannot be taken from it", "it has no count to change", "units cannot be added to it"]
        for (change, consequence) in zip([-1, 0, 1], consequences) {
            let refused = try shop.send("PATCH", "/v1/products/apple", json: #"{"stockChange":\#(change)}"#, admin: true)
            #expect(refused.errorMessage == "The stock of 'apple' is not tracked, so \(consequence); set a stock level first.")
        }
    }

    @Test(
        "PATCH refuses with the right status and code, and stores nothing",
        arguments: [
            ("banana", #"{"stockChange":-6}"#, [String](), 422, "stock_change_refused"),
            ("apple", #"{"stockChange":1}"#, [], 422, "stock_change_refused"),
            ("banana", #"{"stock":3,"stockChange":1}"#, [], 400, "conflicting_fields"),
            ("banana", #"{"stock":null,"stockChange":1}"#, [], 400, "conflicting_fields"),
            ("plum", #"{"price":"1"}"#, ["If-None-Match: *"], 404, "unknown_product"),
            ("banana", #"{"stock":-1}"#, [], 400, "invalid_stock"),
            ("banana", #"{"stockChange":1.5}"#, [], 400, "invalid_field"),
            ("banana", #"{"stockChange":"1"}"#, [], 400, "invalid_field"),
            ("banana", #"{"name":null}"#, [], 400, "invalid_field"),
            ("banana", #"{"name":""}"#, [], 400, "invalid_name"),
            ("banana", #"{"price":"0.301"}"#, [], 400, "invalid_amount"),
            ("banana", #"{"price":"1","currency":"EUR"}"#, [], 400, "currency_mismatch"),
            ("banana", #"{"sku":"plum","price":"1"}"#, [], 400, "sku_mismatch"),
            ("banana", #"{"colour":"yellow"}"#, [], 400, "unknown_field"),
            ("plum", #"{"price":"1"}"#, [], 404, "unknown_product"),
            ("plum", #"{"price":"1"}"#, ["If-Match: *"], 412, "precondition_failed"),
            ("banana", #"{"price":"1"}"#, ["If-None-Match: *"], 412, "precondition_failed"),
            ("banana", #"{"price":"1"}"#, ["If-Match: \"1\""], 412, "precondition_failed"),
        ])
    func patchProductRefused(sku: String, body: String, headers: [String], status: Int, code: String) throws {
        let shop = try TestShop()
        let before = try shop.snapshot()
        let response = try shop.send("PATCH", "/v1/products/\(sku)", json: body, headers: headers, admin: true)
        #expect(response.status == status, "\(response.text)")
        #expect(response.errorCode == code)
        #expect(try shop.snapshot() == before)
    }
}
