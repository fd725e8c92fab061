import CartCore
@testable import CartHTTP
import CartTestSupport
import Foundation
import StrictJSON
import Testing

@Suite("Routes: checkout and the order history")
struct OrderRouteTests {
    @Test("checkout places the order (201, Location); a replay of the key is 200, replayed, placing nothing")
    func checkout() throws {
        let shop = try TestShop()
        let id = try shop.cart(with: [("apple", 2), ("banana", 1)])
        let placed = try shop.send("POST", "/v1/carts/\(id)/checkout", headers: ["Idempotency-Key: click-1"])
        #expect(placed.status == 201)
        #expect(placed.header("Location") == "/v1/orders/1")
        let json = try placed.json()
        #expect(json["replayed"]?.bool == false)
        #expect(json["order"]?["number"]?.int == 1)
        #expect(json["order"]?["total"]?.string == "1.25")
        #expect(json["order"]?["idempotencyKey"]?.string == "click-1")
        #expect(try shop.service.cart(id).isEmpty)
        #expect(try shop.service.product("banana").stock == 4)
        try shop.service.add("apple", to: id)
        let replay = try shop.send("POST", "/v1/carts/\(id)/checkout", headers: ["Idempotency-Key: click-1"])
        #expect(replay.status == 200)
        #expect(try replay.json()["replayed"]?.bool == true)
        #expect(try replay.json()["order"] == json["order"])
        #expect(try shop.service.cart(id).totalItems == 1)
        #expect(try shop.service.counts().orders == 1)
    }

    @Test("checkout needs a key, refuses an empty cart, and a key used for another cart is 409")
    func checkoutRefused() throws {
        let shop = try TestShop()
        let id = try shop.cart(with: [("apple", 1)])
        let other = try shop.cart(with: [("apple", 1)])
        #expect(try shop.send("POST", "/v1/carts/\(id)/checkout").errorCode == "missing_idempotency_key")
        #expect(try shop.send("POST", "/v1/carts/\(id)/checkout", headers: ["Idempotency-Key: a", "Idempotency-Key: b"]).errorCode == "invalid_header")
        #expect(try shop.send("POST", "/v1/carts/\(id)/checkout", json: #"{"total":"0.50"}"#, headers: ["Idempotency-Key: k"]).errorCode == "unknown_field")
        let empty = try shop.mint()
        let refused = try shop.send("POST", "/v1/carts/\(empty)/checkout", headers: ["Idempotency-Key: k"])
        #expect(refused.status == 422)
        #expect(refused.errorCode == "empty_cart")
        #expect(try shop.send("POST", "/v1/carts/\(id)/checkout", headers: ["Idempotency-Key: k"]).status == 201)
        let reused = try shop.send("POST", "/v1/carts/\(other)/checkout", headers: ["Idempotency-Key: k"])
        #expect(reused.status == 409)
        #expect(reused.errorCode == "idempotency_key_reused")
        #expect(!reused.text.contains(id))
        #expect(try shop.service.cart(other).totalItems == 1)
    }

    @Test("checkout with expectedTotal places the order only at that total; otherwise 409 total_changed with the cart")
    func expectedTotal() throws {
        let shop = try TestShop()
        let id = try shop.cart(with: [("apple", 2), ("banana", 1)])
        let shown = try shop.send("GET", "/v1/carts/\(id)")
        let total = try #require(try shown.json()["subtotal"]?.string)
        _ = try shop.send("PUT", "/v1/products/banana", json: #"{"name":"Banana","price":"0.40"}"#, admin: true)
        let before = try shop.snapshot()
        let stale = try shop.send(
            "POST", "/v1/carts/\(id)/checkout", json: #"{"expectedTotal":"\#(total)"}"#, headers: ["Idempotency-Key: k"])
        #expect(stale.status == 409)
        #expect(stale.errorCode == "total_changed")
        #expect(stale.errorMessage?.contains("totals $1.40, not the $1.25 expected") == true, "\(stale.errorMessage ?? "")")
        #expect(try stale.json()["cart"]?["subtotal"]?.string == "1.40")
        #expect(stale.header("ETag") == #""2""#)
        #expect(try shop.snapshot() == before)
        for (body, code) in [(#"{"expectedTotal":1.4}"#, "invalid_field"), (#"{"expectedTotal":"1.4x"}"#, "invalid_amount"),
            (#"{"expectedTotal":"1.405"}"#, "invalid_amount")] {
            let malformed = try shop.send("POST", "/v1/carts/\(id)/checkout", json: body, headers: ["Idempotency-Key: k"])
            #expect(malformed.status == 400 && malformed.errorCode == code, "\(body)")
        }
        #expect(try shop.snapshot() == before)
        let placed = try shop.send(
            "POST", "/v1/carts/\(id)/checkout", json: #"{"expectedTotal":"1.4"}"#, headers: ["Idempotency-Key: k"])
        #expect(placed.status == 201)
        #expect(try placed.json()["order"]?["total"]?.string == "1.40")
        // A retry of that key answers with its order, whatever total it names.
        let replay = try shop.send(
            "POST", "/v1/carts/\(id)/checkout", json: #"{"expectedTotal":"\#(total)"}"#, headers: ["Idempotency-Key: k"])
        #expect(replay.status == 200)
        #expect(try replay.json()["replayed"]?.bool == true)
    }

    /// Places `count` orders of one apple each in cart `id`.
    func place(_ count: Int, in id: String, _ shop: TestShop) throws {
        for index in 0..<count {
            try shop.service.add("apple", to: id)
            _ = try shop.service.checkout(id, idempotencyKey: "\(id)-\(index)")
        }
    }

    @Test("a cart's orders come newest first, a page at a time")
    func cartOrders() throws {
        let shop = try TestShop()
        let id = try shop.mint()
        let other = try shop.mint()
        try place(3, in: id, shop)
        try place(1, in: other, shop)
        let first = try shop.send("GET", "/v1/carts/\(id)/orders?limit=2").json()
        #expect(first["orders"]?.array?.compactMap { $0["number"]?.int } == [3, 2])
        #expect(first["next"]?.int == 2)
        let second = try shop.send("GET", "/v1/carts/\(id)/orders?limit=2&after=2").json()
        #expect(second["orders"]?.array?.compactMap { $0["number"]?.int } == [1])
        #expect(second["next"] == .null)
        #expect(try shop.send("GET", "/v1/carts/\(id)/orders?limit=0").errorCode == "invalid_query_parameter")
        #expect(try shop.send("GET", "/v1/carts/\(id)/orders?page=2").errorCode == "unknown_query_parameter")
        #expect(try shop.send("GET", "/v1/carts/\(id)/orders?limit=1&limit=2").errorCode == "invalid_query_parameter")
        // Another cart's order (4) is no cursor: it answers as a number no order has (5), so
        // a shopper cannot tell which numbers other carts' orders hold.
        for after in [4, 5] {
            let unknown = try shop.send("GET", "/v1/carts/\(id)/orders?after=\(after)")
            #expect(unknown.status == 404 && unknown.errorCode == "order_not_found", "\(after) \(unknown)")
        }
        // The admin's list of one cart's orders still takes any order as its cursor.
        let admin = try shop.send("GET", "/v1/orders?cart=\(id)&after=4", admin: true).json()
        #expect(admin["orders"]?.array?.compactMap { $0["number"]?.int } == [3, 2, 1])
    }

    @Test("the admin order list filters as cart orders does")
    func listOrders() throws {
        let shop = try TestShop()
        let id = try shop.mint()
        let other = try shop.mint()
        try place(2, in: id, shop)
        try place(1, in: other, shop)
        let all = try shop.send("GET", "/v1/orders", admin: true).json()
        #expect(all["orders"]?.array?.compactMap { $0["number"]?.int } == [3, 2, 1])
        let oldest = try shop.send("GET", "/v1/orders?oldest_first=true&limit=2", admin: true).json()
        #expect(oldest["orders"]?.array?.compactMap { $0["number"]?.int } == [1, 2])
        let mine = try shop.send("GET", "/v1/orders?cart=\(other)&sku=apple&since=2000-01-01", admin: true).json()
        #expect(mine["orders"]?.array?.compactMap { $0["number"]?.int } == [3])
        let none = try shop.send("GET", "/v1/orders?until=2000-01-01", admin: true).json()
        #expect(none["orders"]?.array == [])
        #expect(try shop.send("GET", "/v1/orders?since=yesterday", admin: true).errorCode == "invalid_query_parameter")
        let empty = try shop.send("GET", "/v1/orders?since=2027-01-01&until=2026-01-01", admin: true)
        #expect(empty.status == 400)
        #expect(empty.errorCode == "empty_date_range")
        #expect(try shop.send("GET", "/v1/orders/stats?by=day&since=2026-01-01&until=2026-01-01", admin: true).errorCode == "empty_date_range")
        #expect(try shop.send("GET", "/v1/orders?oldest_first=1", admin: true).errorCode == "invalid_query_parameter")
        // Numbers are written as the paths write them: `/v1/orders/01` is no order number either.
        for limit in ["01", "+1", "1.0", "-0"] {
            #expect(try shop.send("GET", "/v1/orders?limit=\(limit)", admin: true).errorCode == "invalid_query_parameter", "\(limit)")
        }
        #expect(try shop.send("GET", "/v1/orders?cart=%20x", admin: true).errorCode == "invalid_cart_id")
        // A SKU is taken exactly, as in a path, not trimmed into another.
        for route in ["/v1/orders", "/v1/orders/stats", "/v1/orders.csv"] {
            #expect(try shop.send("GET", "\(route)?sku=%20apple", admin: true).errorCode == "invalid_sku", "\(route)")
        }
    }

    @Test("one order by number; an unknown number is 404, a malformed one 400")
    func getOrder() throws {
        let shop = try TestShop()
        try place(1, in: try shop.mint(), shop)
        let order = try shop.send("GET", "/v1/orders/1", admin: true)
        #expect(order.status == 200)
        #expect(try order.json()["lines"]?[0]?["sku"]?.string == "apple")
        #expect(try shop.send("GET", "/v1/orders/2", admin: true).errorCode == "order_not_found")
        for number in ["0", "-1", "01", "1.0", "x", "99999999999999999999"] {
            #expect(try shop.send("GET", "/v1/orders/\(number)", admin: true).errorCode == "invalid_order_number", "\(number)")
        }
        #expect(
            try shop.send("GET", "/v1/orders/01", admin: true).errorMessage
                == "An order number is a whole number from 1, in digits without leading zeros; got '01'.")
        #expect(
            try shop.send("GET", "/v1/orders/99999999999999999999", admin: true).errorMessage
                == "An order number is a whole number from 1, in digits without leading zeros; got '99999999999999999999', which is too large.")
    }

    @Test("statistics in total, by day and by product")
    func stats() throws {
        let shop = try TestShop()
        let id = try shop.mint()
        try place(2, in: id, shop)
        let total = try shop.send("GET", "/v1/orders/stats", admin: true).json()
        #expect(total["by"]?.string == "total")
        #expect(total["currency"]?.string == "USD")
        #expect(total["rows"]?[0]?["orders"]?.int == 2)
        #expect(total["rows"]?[0]?["revenue"]?.string == "1.00")
        let product = try shop.send("GET", "/v1/orders/stats?by=product", admin: true).json()
        #expect(product["rows"]?[0]?["key"]?.string == "apple")
        let day = try shop.send("GET", "/v1/orders/stats?by=day", admin: true).json()
        #expect(day["rows"]?.array?.count == 1)
        #expect(day["utcOffset"]?.string == "+00:00")
        let east = try shop.send("GET", "/v1/orders/stats?by=day&utc_offset=%2B02:00", admin: true).json()
        #expect(east["utcOffset"]?.string == "+02:00")
        #expect(east["rows"]?[0]?["orders"]?.int == 2)
        #expect(total["utcOffset"] == nil)
        #expect(try shop.send("GET", "/v1/orders/stats?by=day&utc_offset=+02:00", admin: true).errorCode == "invalid_query_parameter")
        for target in ["/v1/orders/stats?utc_offset=-05:30", "/v1/orders/stats?by=product&utc_offset=%2B02:00"] {
            let refused = try shop.send("GET", target, admin: true)
            #expect(refused.status == 400 && refused.errorCode == "utc_offset_needs_days", "\(target)")
        }
        #expect(try shop.send("GET", "/v1/orders/stats?by=week", admin: true).errorCode == "invalid_query_parameter")
    }

    @Test("statistics whose revenue does not fit in 64 bits are 422 amount_overflow, saying how to ask for less")
    func statsOverflow() throws {
        let shop = try TestShop()
        // No checkout can place such orders; another client writing the store directly can.
        let huge = Money(minorUnits: Int64.max / 2 + 1, currency: .usd)
        try shop.service.repository.write { storage in
            for number: Int64 in 1...2 {
                let line = OrderLine(sku: "apple", name: "Apple", unitPrice: huge, quantity: 1, lineTotal: huge)
                try storage.insertOrder(
                    Order(
                        number: OrderNumber(rawValue: number), cartID: "alice", placedAt: Date(timeIntervalSince1970: 1_800_000_000),
                        currency: .usd, totalItems: 1, total: huge, idempotencyKey: nil, lines: [line]))
            }
        }
        for target in ["/v1/orders/stats", "/v1/orders/stats?by=day", "/v1/orders/stats?by=product"] {
            let refused = try shop.send("GET", target, admin: true)
            #expect(refused.status == 422 && refused.errorCode == "amount_overflow", "\(target)")
            #expect(refused.errorMessage?.contains("since, until") == true, "\(target): \(refused.errorMessage ?? "")")
        }
    }

    @Test("the CSV export has the CLI's columns and quoting, streamed chunked across pages")
    func csv() throws {
        let shop = try TestShop()
        _ = try shop.send("PUT", "/v1/products/apple", json: #"{"name":"Apple, \"red\"","price":"0.50"}"#, admin: true)
        let id = try shop.mint()
        try place(OrderExport.pageSize + 1, in: id, shop)
        let response = try shop.send("GET", "/v1/orders.csv?oldest_first=true", admin: true)
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "text/csv; charset=utf-8")
        #expect(response.header("Transfer-Encoding") == "chunked")
        let rows = response.text.split(separator: "\n")
        #expect(rows.first == "number,placed_at,cart,sku,name,quantity,unit_price,line_total,currency")
        #expect(rows.count == OrderExport.pageSize + 2)
        #expect(rows[1].hasPrefix("1,"))
        #expect(rows[1].hasSuffix(",\(id),apple,\"Apple, \"\"red\"\"\",1,0.50,0.50,USD"))
        #expect(rows.last?.hasPrefix("\(OrderExport.pageSize + 1),") == true)
        let limited = try shop.send("GET", "/v1/orders.csv?limit=2", admin: true)
        #expect(limited.text.split(separator: "\n").dropFirst().map { $0.prefix(4) } == ["501,", "500,"])
        #expect(try shop.send("GET", "/v1/orders.csv?limit=0", admin: true).errorCode == "invalid_query_parameter")
        // An export that stopped goes on after the last order it wrote, as `--after` does.
        let rest = try shop.send("GET", "/v1/orders.csv?after=3&limit=\(Int.max)", admin: true)
        #expect(rest.status == 200)
        #expect(rest.text.split(separator: "\n").dropFirst().map { $0.prefix(2) } == ["2,", "1,"])
        let tail = try shop.send("GET", "/v1/orders.csv?after=499&oldest_first=true", admin: true)
        #expect(tail.text.split(separator: "\n").dropFirst().map { $0.prefix(4) } == ["500,", "501,"])
        let zero = try shop.send("GET", "/v1/orders.csv?after=0", admin: true)
        #expect(zero.errorCode == "invalid_query_parameter")
        #expect(zero.errorMessage == "The query parameter 'after' must be a whole number of at least 1; got '0'.")
        let huge = try shop.send("GET", "/v1/orders.csv?after=99999999999999999999", admin: true)
        #expect(huge.errorCode == "invalid_query_parameter")
        #expect(
            huge.errorMessage
                == "The query parameter 'after' must be a whole number of at least 1; got '99999999999999999999', which is too large.")
        // Not a number at all, or one with a leading zero, is not said to be too large.
        for text in ["099999999999999999999", "-99999999999999999999", "9e99"] {
            let message = try shop.send("GET", "/v1/orders.csv?after=\(text)", admin: true).errorMessage ?? ""
            #expect(message.hasSuffix("got '\(text)'."), "\(message)")
        }
        // A cursor naming no order is 404, not an empty last page.
        for route in ["/v1/orders.csv", "/v1/orders", "/v1/carts/\(id)/orders"] {
            let missing = try shop.send("GET", "\(route)?after=\(OrderExport.pageSize + 2)", admin: true)
            #expect(missing.status == 404 && missing.errorCode == "order_not_found", "\(route) \(missing)")
        }
    }

    @Test("the CSV export asked for over HTTP/1.0, which cannot mark a body cut short, gets 426")
    func csvOverHTTP10() throws {
        let shop = try TestShop()
        try place(1, in: try shop.mint(), shop)
        let refused = try shop.send("GET", "/v1/orders.csv", admin: true, version: "HTTP/1.0")
        #expect(refused.status == 426)
        #expect(refused.errorCode == "http_1_1_required")
        #expect(refused.header("Upgrade") == "HTTP/1.1")
        #expect(refused.header("Transfer-Encoding") == nil)
        // The token is checked first, and the other admin routes answer HTTP/1.0 as ever.
        #expect(try shop.send("GET", "/v1/orders.csv", version: "HTTP/1.0").status == 401)
        let orders = try shop.send("GET", "/v1/orders", admin: true, version: "HTTP/1.0")
        #expect(orders.status == 200)
        #expect(try orders.json()["orders"]?.array?.count == 1)
    }
}
