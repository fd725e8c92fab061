import CartCore
@testable import CartHTTP
import CartTestSupport
import StrictJSON
import Testing

@Suite("Routes: minting, reading and changing carts")
struct CartRouteTests {
    /// The quantity of each line of a cart response, in order.
    func lines(_ response: TestResponse) throws -> [String] {
        try response.json()["items"]?.array?.compactMap { line in
            guard let sku = line["sku"]?.string, let quantity = line["quantity"]?.int else { return nil }
            return "\(sku)×\(quantity)"
        } ?? []
    }

    @Test("minting gives an empty cart under a new ID, with Location and ETag \"0\"")
    func mint() throws {
        let shop = try TestShop()
        let response = try shop.send("POST", "/v1/carts")
        #expect(response.status == 201)
        let id = try #require(try response.json()["cart"]?.string)
        #expect(shop.server.api.minter.isMinted(id))
        #expect(response.header("Location") == "/v1/carts/\(id)")
        #expect(response.header("ETag") == "\"0\"")
        #expect(response.text == #"{"cart":"\#(id)","currency":"USD","items":[],"problems":[],"subtotal":"0.00","totalItems":0,"version":0}"#)
        #expect(try shop.send("POST", "/v1/carts", json: "{}").status == 201)
        #expect(try shop.send("POST", "/v1/carts", json: #"{"id":"mine"}"#).errorCode == "unknown_field")
        #expect(try shop.mint() != id)
    }

    @Test("GET shows the cart with its ETag")
    func getCart() throws {
        let shop = try TestShop()
        let id = try shop.cart(with: [("apple", 2), ("banana", 1)])
        let response = try shop.send("GET", "/v1/carts/\(id)")
        #expect(response.status == 200)
        #expect(response.header("ETag") == "\"2\"")
        #expect(try lines(response) == ["apple×2", "banana×1"])
        let json = try response.json()
        #expect(json["subtotal"]?.string == "1.25")
        #expect(json["totalItems"]?.int == 3)
        #expect(json["items"]?[0]?["lineTotal"]?.string == "1.00")
    }

    @Test("adding merges into the line, 1 by default")
    func add() throws {
        let shop = try TestShop()
        let id = try shop.mint()
        let first = try shop.send("POST", "/v1/carts/\(id)/items", json: #"{"sku":"apple","quantity":2}"#)
        #expect(first.status == 200)
        #expect(first.header("ETag") == "\"1\"")
        let second = try shop.send("POST", "/v1/carts/\(id)/items", json: #"{"sku":"apple"}"#)
        #expect(try lines(second) == ["apple×3"])
        #expect(second.header("ETag") == "\"2\"")
        // A SKU in the body is taken exactly, as in the path: the core would trim " apple".
        for padded in [#"" apple""#, #""apple ""#, #""\tapple""#] {
            let response = try shop.send("POST", "/v1/carts/\(id)/items", json: #"{"sku":\#(padded)}"#)
            #expect(response.status == 400 && response.errorCode == "invalid_sku", "\(padded)")
        }
        #expect(try lines(try shop.send("GET", "/v1/carts/\(id)")) == ["apple×3"])
    }

    @Test(
        "adding is refused, changing nothing, by the rules",
        arguments: [
            (#"{"sku":"plum"}"#, 404, "unknown_product"),
            (#"{"sku":"pear"}"#, 422, "inactive_product"),
            (#"{"sku":"banana","quantity":6}"#, 422, "insufficient_stock"),
            (#"{"sku":"apple","quantity":100}"#, 422, "line_quantity_cap_exceeded"),
            (#"{"sku":"apple","quantity":0}"#, 400, "invalid_quantity"),
            (#"{"sku":"apple","quantity":-1}"#, 400, "invalid_quantity"),
            (#"{"quantity":1}"#, 400, "missing_field"),
            (#"{"sku":7}"#, 400, "invalid_field"),
            (#"{"sku":"apple","quantity":"2"}"#, 400, "invalid_field"),
            (#"{"sku":"apple","quantity":2.0}"#, 400, "invalid_field"),
            (#"{"sku":"apple","quantity":null}"#, 400, "invalid_field"),
            (#"{"sku":"","quantity":1}"#, 400, "invalid_sku"),
        ])
    func addRefused(body: String, status: Int, code: String) throws {
        let shop = try TestShop()
        let id = try shop.cart(with: [("apple", 1)])
        let before = try shop.snapshot()
        let response = try shop.send("POST", "/v1/carts/\(id)/items", json: body)
        #expect(response.status == status)
        #expect(response.errorCode == code)
        #expect(try shop.snapshot() == before)
    }

    @Test("a rule's refusal names the SKU, the quantity the line would hold and the stock or cap that refused it")
    func refusalFields() throws {
        let shop = try TestShop(settings: StoreSettings(currency: .usd, maxLineQuantity: 99, maxLinesPerCart: 1))
        let full = try shop.cart(with: [("apple", 98)])
        let empty = try shop.mint()
        func add(_ body: String, to id: String) throws -> String {
            try shop.send("POST", "/v1/carts/\(id)/items", json: body).text
        }
        // The SKU is given as it is, quote and all, where the message quotes it.
        #expect(
            try add(#"{"sku":"kid's-tee"}"#, to: empty)
                == #"{"error":{"code":"unknown_product","message":"No product with SKU 'kid's-tee'.","sku":"kid's-tee"}}"#)
        #expect(
            try add(#"{"sku":"pear"}"#, to: empty)
                == #"{"error":{"code":"inactive_product","message":"Product 'pear' is not for sale.","sku":"pear"}}"#)
        #expect(
            try add(#"{"sku":"banana","quantity":6}"#, to: empty)
                == #"{"error":{"code":"insufficient_stock","limit":5,"message":"Insufficient stock for 'banana': the line would hold 6 of the 5 in stock.","requested":6,"sku":"banana"}}"#
        )
        #expect(
            try add(#"{"sku":"apple","quantity":2}"#, to: full)
                == #"{"error":{"code":"line_quantity_cap_exceeded","limit":99,"message":"Cannot hold 100 of 'apple': at most 99 per line.","requested":100,"sku":"apple"}}"#
        )
        #expect(
            try add(#"{"sku":"banana"}"#, to: full)
                == #"{"error":{"code":"line_count_cap_exceeded","limit":1,"message":"Cart '\#(full)' cannot take another line: a cart holds at most 1 line."}}"#
        )
        #expect(try shop.send("PATCH", "/v1/products/banana", json: #"{"stock":0}"#, admin: true).status == 200)
        #expect(
            try add(#"{"sku":"banana"}"#, to: empty)
                == #"{"error":{"code":"insufficient_stock","limit":0,"message":"'banana' is out of stock.","requested":1,"sku":"banana"}}"#)
        // Other refusals carry no fields of these.
        #expect(
            try add(#"{"sku":"apple","quantity":0}"#, to: empty)
                == #"{"error":{"code":"invalid_quantity","message":"Quantity must be at least 1; got 0."}}"#)
    }

    @Test("a refusal about a line the cart lacks or a stock that cannot change names the SKU, and changes nothing")
    func lineAndStockRefusalsNameTheSKU() throws {
        let shop = try TestShop()
        let id = try shop.cart(with: [("banana", 1)])
        let before = try shop.snapshot()
        for (method, path) in [("POST", "/v1/carts/\(id)/items/apple/remove"), ("DELETE", "/v1/carts/\(id)/items/apple")] {
            #expect(
                try shop.send(method, path).text
                    == #"{"error":{"code":"not_in_cart","message":"'apple' is not in cart '\#(id)'.","sku":"apple"}}"#)
        }
        #expect(
            try shop.send("PATCH", "/v1/products/apple", json: #"{"stockChange":1}"#, admin: true).text
                == #"{"error":{"code":"stock_change_refused","message":"The stock of 'apple' is not tracked, so units cannot be added to it; set a stock level first.","sku":"apple"}}"#
        )
        #expect(
            try shop.send("PATCH", "/v1/products/banana", json: #"{"stockChange":-6}"#, admin: true).text
                == #"{"error":{"code":"stock_change_refused","message":"Cannot take 6 from the stock of 'banana': it holds 5.","sku":"banana"}}"#
        )
        #expect(try shop.snapshot() == before)
    }

    @Test("a JSON body may carry empty media-type parameters and surrounding white space; white space alone is no body")
    func bodyFraming() throws {
        let shop = try TestShop()
        let id = try shop.mint()
        for contentType in ["application/json;", "application/json ; ; charset=UTF-8;", "Application/JSON;charset=\"utf-8\""] {
            let added = try shop.send("POST", "/v1/carts/\(id)/items", json: "\n {\"sku\":\"apple\"} \r\n", contentType: contentType)
            #expect(added.status == 200, "\(contentType)")
        }
        #expect(try shop.service.cart(id).totalItems == 3)
        let blank = try shop.send("POST", "/v1/carts/\(id)/items", json: " \r\n\t")
        #expect(blank.status == 400)
        #expect(blank.errorCode == "missing_body")
        // A checkout's body is optional: white space alone is none.
        let checkout = try shop.send("POST", "/v1/carts/\(id)/checkout", json: "\n", headers: ["Idempotency-Key: k"])
        #expect(checkout.status == 201)
        let marked = try shop.send("POST", "/v1/carts/\(id)/items", json: "\u{FEFF}{\"sku\":\"apple\"}")
        #expect(marked.status == 400)
        #expect(marked.errorMessage == "The body starts with a byte order mark (EF BB BF); send the JSON without one.")
        #expect(try shop.service.cart(id).isEmpty)
    }

    @Test("a line over the per-line cap is 422 once earlier adds grew it")
    func lineCap() throws {
        let shop = try TestShop()
        let id = try shop.cart(with: [("apple", 98)])
        let response = try shop.send("POST", "/v1/carts/\(id)/items", json: #"{"sku":"apple","quantity":2}"#)
        #expect(response.status == 422)
        #expect(response.errorCode == "line_quantity_cap_exceeded")
    }

    @Test("setting a quantity replaces it; 0 removes the line; 0 again, as a retry sends it, changes nothing")
    func set() throws {
        let shop = try TestShop()
        let id = try shop.cart(with: [("apple", 1), ("banana", 1)])
        #expect(try lines(try shop.send("PUT", "/v1/carts/\(id)/items/apple", json: #"{"quantity":7}"#)) == ["apple×7", "banana×1"])
        #expect(try lines(try shop.send("PUT", "/v1/carts/\(id)/items/apple", json: #"{"quantity":0}"#)) == ["banana×1"])
        let retried = try shop.send("PUT", "/v1/carts/\(id)/items/apple", json: #"{"quantity":0}"#)
        #expect(retried.status == 200)
        #expect(try lines(retried) == ["banana×1"])
        #expect(retried.header("ETag") == #""4""#)
        #expect(try shop.send("PUT", "/v1/carts/\(id)/items/apple", json: "{}").errorCode == "missing_field")
        #expect(try shop.send("PUT", "/v1/carts/\(id)/items/banana", json: #"{"quantity":9}"#).errorCode == "insufficient_stock")
    }

    @Test("a line another client stored with a quantity out of range: PUT and DELETE of it mend the cart, POST refuses")
    func damagedLine() throws {
        let shop = try TestShop()
        let id = try shop.cart(with: [("apple", 2), ("banana", 1)])
        func damage() throws {
            try shop.service.repository.write { try $0.updateCartLine(cartID: id, sku: "apple", quantity: 2_000_000) }
        }
        try damage()
        let before = try shop.snapshot()
        #expect(before.carts.first?.totalItems == nil, "the list still shows the cart")
        // The cart is shown without the line, which its problems name.
        let shown = try shop.send("GET", "/v1/carts/\(id)")
        #expect(shown.status == 200 && shown.header("ETag") == #""2""#)
        #expect(try lines(shown) == ["banana×1"])
        #expect(try problemCodes(shown) == ["apple: damaged_line"])
        // The quantity stored is given beside the message, as the cart's items leave the line out.
        let problem =
            #"{"code":"damaged_line","message":"'apple': the store holds 2000000 units, which no line can hold; set the line's quantity or delete it.","quantity":2000000,"sku":"apple"}"#
        #expect(shown.text.contains(#""problems":[\#(problem)]"#))
        let refused = try shop.send("POST", "/v1/carts/\(id)/items/apple/remove")
        #expect(refused.status == 500 && refused.errorCode == "store_damaged")
        let added = try shop.send("POST", "/v1/carts/\(id)/items", json: #"{"sku":"apple"}"#)
        #expect(added.status == 500 && added.errorCode == "store_damaged")
        let checkout = try shop.send("POST", "/v1/carts/\(id)/checkout", headers: ["Idempotency-Key: k"])
        #expect(checkout.status == 422 && checkout.errorCode == "cannot_check_out")
        #expect(checkout.text.hasSuffix(#""problems":[\#(problem)]}"#))
        #expect(try shop.snapshot() == before, "refused requests change nothing")

        let set = try shop.send("PUT", "/v1/carts/\(id)/items/apple", json: #"{"quantity":3}"#)
        #expect(set.status == 200 && set.header("ETag") == #""3""#)
        #expect(try lines(set) == ["apple×3", "banana×1"])
        try damage()
        #expect(try shop.send("PUT", "/v1/carts/\(id)/items/apple", json: #"{"quantity":100}"#).errorCode == "line_quantity_cap_exceeded")
        // Under an If-Match naming several versions, as under one.
        let deleted = try shop.send("DELETE", "/v1/carts/\(id)/items/apple", headers: [#"If-Match: "9", "3""#])
        #expect(deleted.status == 200)
        #expect(try lines(deleted) == ["banana×1"])
        #expect(try shop.service.listCarts().first?.totalItems == 1)
    }

    @Test("two damaged lines in one cart: each is mended on its own, the other named meanwhile")
    func twoDamagedLines() throws {
        let shop = try TestShop()
        let id = try shop.cart(with: [("apple", 2), ("banana", 1)])
        try shop.service.repository.write { storage in
            try storage.updateCartLine(cartID: id, sku: "apple", quantity: 2_000_000)
            try storage.updateCartLine(cartID: id, sku: "banana", quantity: 1_000_001)
        }
        let set = try shop.send("PUT", "/v1/carts/\(id)/items/apple", json: #"{"quantity":1}"#)
        #expect(set.status == 200)
        #expect(try lines(set) == ["apple×1"])
        #expect(try problemCodes(set) == ["banana: damaged_line"])
        let deleted = try shop.send("DELETE", "/v1/carts/\(id)/items/banana")
        #expect(deleted.status == 200)
        #expect(try lines(deleted) == ["apple×1"])
        #expect(try problemCodes(deleted).isEmpty)
    }

    func problemCodes(_ response: TestResponse) throws -> [String] {
        try response.json()["problems"]?.array?.compactMap { problem in
            guard let sku = problem["sku"]?.string, let code = problem["code"]?.string else { return nil }
            return "\(sku): \(code)"
        } ?? []
    }

    @Test("remove takes 1 by default and the line goes at 0, also when more are removed than it holds")
    func remove() throws {
        let shop = try TestShop()
        let id = try shop.cart(with: [("apple", 3), ("banana", 2)])
        #expect(try lines(try shop.send("POST", "/v1/carts/\(id)/items/apple/remove")) == ["apple×2", "banana×2"])
        #expect(try lines(try shop.send("POST", "/v1/carts/\(id)/items/apple/remove", json: #"{"quantity":5}"#)) == ["banana×2"])
        #expect(try shop.send("POST", "/v1/carts/\(id)/items/apple/remove").errorCode == "not_in_cart")
        #expect(try shop.send("POST", "/v1/carts/\(id)/items/banana/remove", json: #"{"quantity":0}"#).errorCode == "invalid_quantity")
    }

    @Test("delete removes a line whatever its quantity; clear removes every line")
    func deleteAndClear() throws {
        let shop = try TestShop()
        let id = try shop.cart(with: [("apple", 3), ("banana", 2)])
        #expect(try lines(try shop.send("DELETE", "/v1/carts/\(id)/items/apple")) == ["banana×2"])
        #expect(try shop.send("DELETE", "/v1/carts/\(id)/items/apple").errorCode == "not_in_cart")
        let cleared = try shop.send("DELETE", "/v1/carts/\(id)/items")
        #expect(cleared.status == 200)
        #expect(try lines(cleared) == [])
        #expect(cleared.header("ETag") == "\"4\"")
        #expect(try shop.send("DELETE", "/v1/carts/\(id)/items").header("ETag") == "\"4\"")
    }

    @Test("merge moves the lines of another minted cart and reports clamped lines")
    func merge() throws {
        let shop = try TestShop()
        let target = try shop.cart(with: [("banana", 4)])
        let source = try shop.cart(with: [("banana", 3), ("apple", 1)])
        let response = try shop.send("POST", "/v1/carts/\(target)/merge", json: #"{"from":"\#(source)"}"#)
        #expect(response.status == 200)
        let json = try response.json()
        #expect(json["mergedLines"]?.int == 2)
        #expect(json["adjustments"]?[0]?["reason"]?.string == "insufficient_stock")
        #expect(json["adjustments"]?[0]?["kept"]?.int == 5)
        #expect(json["cart"]?["problems"]?.array == [])
        #expect(response.header("ETag") == "\"\(json["cart"]?["version"]?.int ?? -1)\"")
        #expect(try shop.service.cart(source).isEmpty)
        #expect(try shop.send("POST", "/v1/carts/\(target)/merge", json: #"{"from":"\#(target)"}"#).errorCode == "merge_into_self")
        // Quantities outside the document's bounds are malformed, checked before If-Match.
        let tooMany = try shop.send(
            "PUT", "/v1/carts/\(target)/items/apple", json: #"{"quantity":1000001}"#, headers: [#"If-Match: "8595""#])
        #expect(tooMany.status == 400 && tooMany.errorCode == "invalid_quantity")
        #expect(try tooMany.json()["error"]?["message"]?.string == "Quantity must be at most 1000000, the most any store allows in a line; got 1000001.")
        let noUnits = try shop.send("POST", "/v1/carts/\(target)/items", json: #"{"sku":"apple","quantity":0}"#)
        #expect(noUnits.status == 400 && noUnits.errorCode == "invalid_quantity")
        // Below the bounds the message does not name the document's upper bound, which is not
        // the store's per-line cap.
        #expect(try noUnits.json()["error"]?["message"]?.string == "Quantity must be at least 1; got 0.")
        let negative = try shop.send(
            "POST", "/v1/carts/\(target)/items/apple/remove", json: #"{"quantity":-5}"#, headers: [#"If-Match: "8595""#])
        #expect(negative.status == 400 && negative.errorCode == "invalid_quantity")
        // A source never written is named by the body, not the path: 422, and the target stays.
        let missing = try shop.send("POST", "/v1/carts/\(target)/merge", json: #"{"from":"nobody"}"#, admin: true)
        #expect(missing.status == 422 && missing.errorCode == "cart_not_found")
        // A minted cart never written is an empty cart, as its GET shows: a guest who added
        // nothing merges nothing, and the target does not change.
        let before = try shop.service.cart(target)
        let guest = try shop.mint()
        let nothing = try shop.send("POST", "/v1/carts/\(target)/merge", json: #"{"from":"\#(guest)"}"#)
        #expect(nothing.status == 200)
        #expect(try nothing.json()["mergedLines"]?.int == 0)
        #expect(try nothing.json()["adjustments"]?.array == [])
        #expect(try nothing.json()["cart"]?["version"]?.int == before.version)
        #expect(nothing.header("ETag") == "\"\(before.version)\"")
        #expect(try shop.service.cart(target) == before)
    }

    @Test("merge honours If-Match on the cart merged into: 412 with that cart, or the merge")
    func conditionalMerge() throws {
        let shop = try TestShop()
        let target = try shop.cart(with: [("banana", 1)])
        let source = try shop.cart(with: [("apple", 2)])
        let version = try shop.service.cart(target).version
        let stale = try shop.send(
            "POST", "/v1/carts/\(target)/merge", json: #"{"from":"\#(source)"}"#, headers: ["If-Match: \"\(version + 7)\""])
        #expect(stale.status == 412 && stale.errorCode == "version_conflict")
        #expect(try stale.json()["cart"]?["version"]?.int == version)
        #expect(stale.header("ETag") == "\"\(version)\"")
        #expect(try shop.service.cart(source).lines.map(\.quantity) == [2], "a refused merge moves nothing")
        // The precondition is judged before the body's source, even one never written.
        let unwritten = try shop.mint()
        let staleAndMissing = try shop.send(
            "POST", "/v1/carts/\(target)/merge", json: #"{"from":"\#(unwritten)"}"#, headers: ["If-Match: \"\(version + 7)\""])
        #expect(staleAndMissing.status == 412 && staleAndMissing.errorCode == "version_conflict")
        let malformed = try shop.send(
            "POST", "/v1/carts/\(target)/merge", json: #"{"from":"\#(source)"}"#, headers: ["If-Match: 3"])
        #expect(malformed.status == 400 && malformed.errorCode == "invalid_if_match")
        let merged = try shop.send(
            "POST", "/v1/carts/\(target)/merge", json: #"{"from":"\#(source)"}"#, headers: ["If-Match: \"9\", \"\(version)\""])
        #expect(merged.status == 200)
        #expect(try merged.json()["mergedLines"]?.int == 1)
        #expect(merged.header("ETag") == "\"\(version + 1)\"")
        #expect(try shop.service.cart(source).isEmpty)
    }

    @Test("merge refuses a missing or malformed source and unreachable carts")
    func mergeRefusals() throws {
        let shop = try TestShop()
        let target = try shop.cart(with: [("banana", 4)])
        let source = try shop.cart(with: [("banana", 3), ("apple", 1)])
        // A malformed source is malformed, with or without the token, before it is unreachable.
        for from in [#""""#, #"" \#(source)""#, #""a\u0007b""#] {
            for admin in [false, true] {
                let malformed = try shop.send("POST", "/v1/carts/\(target)/merge", json: #"{"from":\#(from)}"#, admin: admin)
                #expect(malformed.status == 400 && malformed.errorCode == "invalid_cart_id", "\(from), admin \(admin)")
            }
        }
        #expect(try shop.send("POST", "/v1/carts/\(target)/merge", json: #"{"from":"alice"}"#).status == 401)
        // So is a malformed cart ID in the path (one over 128 characters).
        #expect(try shop.send("GET", "/v1/carts/" + String(repeating: "a", count: 129)).errorCode == "invalid_cart_id")
    }

    @Test("a cart shows the problems that would refuse its checkout, each with the refusal's code")
    func problems() throws {
        let shop = try TestShop()
        let id = try shop.cart(with: [("apple", 2), ("banana", 4)])
        _ = try shop.send("PUT", "/v1/products/apple", json: #"{"name":"Apple","price":"0.50","active":false}"#, admin: true)
        _ = try shop.send("PUT", "/v1/products/banana", json: #"{"name":"Banana","price":"0.25","stock":1}"#, admin: true)
        let problems = try #require(try shop.send("GET", "/v1/carts/\(id)").json()["problems"]?.array)
        #expect(problems.map { $0["sku"]?.string } == ["apple", "banana"])
        #expect(problems.map { $0["code"]?.string } == ["inactive_product", "insufficient_stock"])
        #expect(problems[1]["message"]?.string == "'banana': 4 in the cart, 1 in stock.")
        let checkout = try shop.send("POST", "/v1/carts/\(id)/checkout", headers: ["Idempotency-Key: k"])
        #expect(checkout.status == 422)
        #expect(checkout.errorCode == "cannot_check_out")
        let refused = try #require(try checkout.json()["problems"]?.array)
        #expect(refused.map { $0["code"]?.string } == ["inactive_product", "insufficient_stock"])
        #expect(try shop.service.cart(id).totalItems == 6)
    }

    @Test("a path that names no resource is 404; a method the resource does not take is 405 with Allow, whatever the method")
    func unknownRoutes() throws {
        let shop = try TestShop()
        let id = try shop.mint()
        for target in ["/index.html", "/v1", "/v2/health", "/v1/health/", "/v1/carts/\(id)/nothing", "/v1/carts/%2e%2e/items"] {
            let response = try shop.send("GET", target)
            #expect(response.status == 404, "\(target)")
            #expect(response.errorCode == "route_not_found", "\(target)")
            let slash = target.hasSuffix("/")
            #expect(response.errorMessage?.contains("end without a '/'") == slash, "\(target)")
        }
        #expect(try shop.send("GET", "/v1/carts/\(id)/").errorMessage?.contains("end without a '/'") == true)
        #expect(try shop.send("GET", "/v1/nothing/").errorMessage == "No such resource.")
        let cases: [(String, String, String)] = [
            ("DELETE", "/v1/health", "GET, HEAD"), ("POST", "/v1/products/apple", "GET, HEAD, PUT, PATCH"),
            ("GET", "/v1/carts", "POST"), ("PATCH", "/v1/carts/\(id)/items", "POST, DELETE"),
            ("GET", "/v1/carts/\(id)/checkout", "POST"), ("HEAD", "/v1/carts", "POST"),
        ]
        for (method, target, allow) in cases {
            let response = try shop.send(method, target)
            #expect(response.status == 405, "\(method) \(target)")
            #expect(response.header("Allow") == allow, "\(method) \(target)")
        }
        for method in ["FOO", "get", "QUERY"] {
            let response = try shop.send(method, "/v1/health")
            #expect(response.status == 405, "\(method)")
            #expect(response.header("Allow") == "GET, HEAD", "\(method)")
        }
    }

    @Test("HEAD answers a GET route with GET's status and headers and no body; streamed routes refuse it")
    func head() throws {
        let shop = try TestShop()
        let id = try shop.cart(with: [("apple", 2)])
        for (target, admin) in [
            ("/v1/health", false), ("/v1/products/apple", false), ("/v1/carts/\(id)", false),
            ("/v1/orders?limit=1", true), ("/v1/openapi.yaml", false),
        ] {
            let get = try shop.send("GET", target, admin: admin)
            let head = try shop.send("HEAD", target, admin: admin)
            #expect(head.status == 200, "\(target)")
            #expect(head.body.isEmpty, "\(target)")
            #expect(head.header("Content-Type") == get.header("Content-Type"), "\(target)")
            #expect(head.header("Content-Length") == String(get.body.count), "\(target)")
            #expect(head.header("ETag") == get.header("ETag"), "\(target)")
        }
        #expect(try shop.send("HEAD", "/v1/products/kiwi").status == 404)
        #expect(try shop.send("HEAD", "/v1/orders").status == 401)

        // libmicrohttpd would end a streamed HEAD answer with a chunk, so those routes refuse it.
        for target in ["/v1/carts/\(id)/events", "/v1/orders.csv"] {
            let refused = try shop.send("HEAD", target, admin: true)
            #expect(refused.status == 405, "\(target)")
            #expect(refused.header("Allow") == "GET", "\(target)")
        }
        // On one kept-alive connection the next response after a HEAD answer is read whole.
        let connection = try TestConnection(port: shop.server.port, timeout: 5)
        connection.send(rawRequest("HEAD", "/v1/carts/\(id)", host: shop.host))
        #expect(try connection.readResponse(bodyExpected: false).status == 200)
        connection.send(rawRequest("GET", "/v1/health", host: shop.host))
        let health = try connection.readResponse()
        #expect(health.status == 200)
        #expect(try health.json()["status"]?.string == "ok")
    }

    @Test("every answered request is logged with method, path, status and duration")
    func accessLog() throws {
        let shop = try TestShop()
        _ = try shop.send("GET", "/v1/health")
        _ = try shop.send("GET", "/v1/nothing?x=1")
        for _ in 0..<2000 where shop.accessLog.all.count < 2 { pause(milliseconds: 5) }
        // Each line is written once its response is sent, on that connection's thread: in
        // either order.
        let lines = shop.accessLog.all.sorted()
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("127.0.0.1 GET /v1/health 200 ") == true)
        #expect(lines.last?.hasPrefix("127.0.0.1 GET /v1/nothing?x=1 404 ") == true)
        #expect(lines.allSatisfy { $0.hasSuffix("ms") })
    }
}
