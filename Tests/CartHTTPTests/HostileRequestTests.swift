import CartCore
@testable import CartHTTP
import CartTestSupport
import Testing

@Suite("Hostile requests get the right status, and the server and the store survive them")
struct HostileRequestTests {
    /// One hostile request: its bytes and the status it must get.
    struct Case: CustomStringConvertible {
        let name: String
        let bytes: [UInt8]
        let status: Int
        var description: String { name }
    }

    /// A request's bytes: `Host` first, then `headers`, then `Content-Length` when `length`
    /// is not nil (the body's own count unless told), then the body.
    static func request(
        _ method: String, _ target: String, host: String, headers: [String] = [], body: [UInt8] = [],
        length: Int? = nil, contentLength: Bool = true
    ) -> [UInt8] {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(host)\r\n"
        for header in headers { head += header + "\r\n" }
        if contentLength, !body.isEmpty || length != nil { head += "Content-Length: \(length ?? body.count)\r\n" }
        return Array((head + "\r\n").utf8) + body
    }

    /// Every case, against a shop whose minted cart `id` holds one apple.
    static func cases(host: String, id: String) -> [Case] {
        let items = "/v1/carts/\(id)/items"
        let json = "Content-Type: application/json"
        let admin = "Authorization: Bearer \(TestShop.token)"
        func add(_ name: String, _ body: [UInt8], _ status: Int, headers: [String] = [json]) -> Case {
            Case(name: name, bytes: request("POST", items, host: host, headers: headers, body: body), status: status)
        }
        func add(_ name: String, _ body: String, _ status: Int, headers: [String] = [json]) -> Case {
            add(name, Array(body.utf8), status, headers: headers)
        }
        func get(_ name: String, _ target: String, _ status: Int, headers: [String] = []) -> Case {
            Case(name: name, bytes: request("GET", target, host: host, headers: headers), status: status)
        }
        func other(_ name: String, _ method: String, _ target: String, headers: [String], body: String = "", _ status: Int)
            -> Case
        {
            Case(name: name, bytes: request(method, target, host: host, headers: headers, body: Array(body.utf8)), status: status)
        }
        func raw(_ name: String, _ text: String, _ status: Int) -> Case {
            Case(name: name, bytes: Array(text.utf8), status: status)
        }
        let twoMiB = [UInt8](repeating: UInt8(ascii: " "), count: 2 << 20)
        var chunked = Array("POST \(items) HTTP/1.1\r\nHost: \(host)\r\n\(json)\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        for _ in 0..<32 { chunked += Array("10000\r\n".utf8) + [UInt8](repeating: 0x20, count: 0x10000) + Array("\r\n".utf8) }
        chunked += Array("0\r\n\r\n".utf8)
        return [
            // Malformed and truncated JSON.
            add("an unclosed object", "{", 400),
            add("a truncated object", #"{"sku":"apple""#, 400),
            add("a trailing comma", #"{"sku":"apple",}"#, 400),
            add("single quotes", #"{"sku":'apple'}"#, 400),
            add("a bare key", #"{sku:"apple"}"#, 400),
            add("text after the value", #"{"sku":"apple"} {}"#, 400),
            add("a repeated key", #"{"sku":"apple","sku":"banana"}"#, 400),
            add("null", "null", 400),
            add("a string", #""apple""#, 400),
            add("an array", #"[{"sku":"apple"}]"#, 400),
            add("no body", "", 400),
            add("a leading zero", #"{"sku":"apple","quantity":01}"#, 400),
            add("an escaped NUL in a SKU", #"{"sku":"apple\u0000"}"#, 400),
            add("a raw tab in a string", "{\"sku\":\"ap\tple\"}", 400),
            add("a lone surrogate", #"{"sku":"\ud800"}"#, 400),
            add("a reversed surrogate pair", #"{"sku":"\udc00\ud800"}"#, 400),
            add("an unknown escape", #"{"sku":"\q"}"#, 400),
            add("an unknown field", #"{"sku":"apple","price":"0.01"}"#, 400),
            add("a field in another case", #"{"SKU":"apple"}"#, 400),
            // Deep nesting and huge numbers.
            add("arrays nested 100,000 deep", String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000), 400),
            add("objects nested 40 deep", String(repeating: #"{"a":"#, count: 40) + "1" + String(repeating: "}", count: 40), 400),
            add("a quantity of 1e400", #"{"sku":"apple","quantity":1e400}"#, 400),
            add("a quantity of 20 digits", #"{"sku":"apple","quantity":99999999999999999999}"#, 400),
            add("a quantity of Int.max, beyond the document's maximum", #"{"sku":"apple","quantity":9223372036854775807}"#, 400),
            add("a quantity of Int.min", #"{"sku":"apple","quantity":-9223372036854775808}"#, 400),
            add("a quantity with an exponent", #"{"sku":"apple","quantity":1e1}"#, 400),
            add("a quantity with a fraction", #"{"sku":"apple","quantity":1.5}"#, 400),
            add("a quantity as a string", #"{"sku":"apple","quantity":"1"}"#, 400),
            add("a quantity of true", #"{"sku":"apple","quantity":true}"#, 400),
            add("a SKU of 10,000 characters", #"{"sku":""# + String(repeating: "a", count: 10_000) + #""}"#, 400),
            // Invalid UTF-8.
            add("a 0xFF byte", Array(#"{"sku":""#.utf8) + [0xFF] + Array(#""}"#.utf8), 400),
            add("an overlong slash", Array(#"{"sku":""#.utf8) + [0xC0, 0xAF] + Array(#""}"#.utf8), 400),
            add("an encoded surrogate", Array(#"{"sku":""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8), 400),
            add("a truncated sequence", Array(#"{"sku":""#.utf8) + [0xE2, 0x82] + Array(#""}"#.utf8), 400),
            add("a byte order mark", [0xEF, 0xBB, 0xBF] + Array(#"{"sku":"apple"}"#.utf8), 400),
            // Bodies too large.
            Case(name: "2 MiB announced", bytes: request("POST", items, host: host, headers: [json], body: twoMiB), status: 413),
            Case(name: "2 MiB chunked", bytes: chunked, status: 413),
            Case(name: "a Content-Length beyond 64 bits", bytes: request("POST", items, host: host, headers: [json, "Content-Length: 99999999999999999999999"], body: [], contentLength: false), status: 413),
            // Wrong content types.
            add("text/plain", #"{"sku":"apple"}"#, 415, headers: ["Content-Type: text/plain"]),
            add("a gzip content coding", #"{"sku":"apple"}"#, 415, headers: ["Content-Type: application/json", "Content-Encoding: gzip"]),
            add("codings in a list", #"{"sku":"apple"}"#, 415, headers: ["Content-Type: application/json", "Content-Encoding: identity, br"]),
            add("JSON in Latin-1", #"{"sku":"apple"}"#, 415, headers: ["Content-Type: application/json; charset=iso-8859-1"]),
            add("no Content-Type", #"{"sku":"apple"}"#, 415, headers: []),
            add("a form", "sku=apple", 415, headers: ["Content-Type: application/x-www-form-urlencoded"]),
            add("multipart", "--x\r\n\r\napple\r\n--x--", 415, headers: ["Content-Type: multipart/form-data; boundary=x"]),
            add("a JSON lookalike type", #"{"sku":"apple"}"#, 415, headers: ["Content-Type: application/jsonx"]),
            add("JSON, then another type", #"{"sku":"apple"}"#, 400, headers: [json, "Content-Type: text/plain"]),
            add("another type, then JSON", #"{"sku":"apple"}"#, 400, headers: ["Content-Type: text/plain", json]),
            other("a field in a line's DELETE", "DELETE", "/v1/carts/\(id)/items/apple", headers: [json], body: #"{"x":1}"#, 400),
            other("text in a clear", "DELETE", "/v1/carts/\(id)/items", headers: ["Content-Type: text/plain"], body: "garbage", 415),
            // Path traversal and percent-encoded tricks.
            get("a dot-dot segment", "/v1/products/../carts", 404),
            get("an encoded dot-dot", "/v1/products/%2e%2E", 404),
            get("an encoded path in a SKU", "/v1/products/%2E%2E%2Fetc%2Fpasswd", 404),
            get("a backslash path in a SKU", "/v1/products/..%5C..%5Cwindows", 404),
            get("an encoded NUL", "/v1/products/apple%00", 400),
            get("an overlong encoded dot", "/v1/products/%C0%AE%C0%AE", 400),
            get("broken percent-encoding", "/v1/products/%ZZ", 400),
            get("a fragment in the target", "/v1/products/apple#x", 400),
            get("a fragment after the query", "/v1/products?search=a#x", 400),
            get("an encoded CRLF", "/v1/products/apple%0D%0AX-Injected:%201", 400),
            get("a right-to-left override in a SKU", "/v1/products/elppa%E2%80%AE", 400),
            get("a SKU with surrounding space", "/v1/products/%20apple", 400),
            get("a SKU of 65 characters", "/v1/products/" + String(repeating: "a", count: 65), 400),
            get("a traversal as a cart ID", "/v1/carts/..%2F..%2Fetc", 401),
            get("an absolute form of another scheme", "ftp://evil.example/v1/health", 400),
            get("a query with broken encoding", "/v1/products?all=%G1", 400),
            // Header tricks and framing.
            other("a bare CR in an idempotency key", "POST", "/v1/carts/\(id)/checkout", headers: ["Idempotency-Key: a\rb"], 400),
            get("a binary bearer token", "/v1/orders", 400, headers: ["Authorization: Bearer \u{7F}\u{01}"]),
            get("a bearer token with a DEL", "/v1/orders", 400, headers: ["Authorization: Bearer \(TestShop.token)\u{7F}"]),
            get("a bearer token of 8 KiB", "/v1/orders", 401, headers: ["Authorization: Bearer " + String(repeating: "t", count: 8192)]),
            raw("a bare CR in a header value", "GET /v1/health HTTP/1.1\r\nHost: \(host)\r\nX-A: a\rb\r\n\r\n", 400),
            raw("an escape character in a header value", "GET /v1/health HTTP/1.1\r\nHost: \(host)\r\nX-A: a\u{1B}[31m\r\n\r\n", 400),
            raw("a tab in a header value", "GET /v1/health HTTP/1.1\r\nHost: \(host)\r\nX-A: a\tb\r\n\r\n", 200),
            raw("two Host headers", "GET /v1/health HTTP/1.1\r\nHost: \(host)\r\nHost: evil.example\r\n\r\n", 400),
            // RFC 9112 lets a server unfold an obsolete line folding instead of refusing it.
            raw("a folded header", "GET /v1/health HTTP/1.1\r\nHost: \(host)\r\nX-A: 1\r\n folded\r\n\r\n", 200),
            raw("a header without a colon", "GET /v1/health HTTP/1.1\r\nHost: \(host)\r\nNoColon\r\n\r\n", 400),
            raw("a space in a header name", "GET /v1/health HTTP/1.1\r\nHost: \(host)\r\nBad Name: x\r\n\r\n", 400),
            raw("an empty header name", "GET /v1/health HTTP/1.1\r\n: x\r\nHost: \(host)\r\n\r\n", 400),
            raw("a pseudo-header line", "GET /v1/health HTTP/1.1\r\n:authority: evil.example\r\nHost: \(host)\r\n\r\n", 400),
            raw("no Host in HTTP/1.1", "GET /v1/health HTTP/1.1\r\n\r\n", 400),
            raw("HTTP/2.0 as text", "GET /v1/health HTTP/2.0\r\nHost: \(host)\r\n\r\n", 505),
            raw("two Content-Lengths", "POST \(items) HTTP/1.1\r\nHost: \(host)\r\n\(json)\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}", 400),
            raw("Content-Length with chunked", "POST \(items) HTTP/1.1\r\nHost: \(host)\r\n\(json)\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
            raw("a gzip transfer coding", "POST \(items) HTTP/1.1\r\nHost: \(host)\r\n\(json)\r\nTransfer-Encoding: gzip\r\n\r\n", 400),
            raw("a lowercase method", "get /v1/health HTTP/1.1\r\nHost: \(host)\r\n\r\n", 405),
            get("a target of 40 KiB", "/v1/products/" + String(repeating: "a", count: 40 * 1024), 414),
            get("headers of 40 KiB", "/v1/health", 431, headers: (0..<40).map { "X-Filler-\($0): " + String(repeating: "x", count: 1000) }),
            get("an admin route with another's token", "/v1/orders.csv", 401, headers: ["Authorization: Bearer \(TestShop.token.dropLast())"]),
            other("a checkout of alice's cart", "POST", "/v1/carts/alice/checkout", headers: ["Idempotency-Key: steal"], 401),
            other("a merge of alice's cart", "POST", "/v1/carts/\(id)/merge", headers: [json], body: #"{"from":"alice"}"#, 401),
            other("an admin request for an unknown route", "GET", "/v1/admin", headers: [admin], 404),
        ]
    }

    @Test("each hostile request gets its status; afterwards the server answers and the store is as it was")
    func hostileRequests() throws {
        let shop = try TestShop()
        try shop.service.add("apple", to: "alice")
        let id = try shop.cart(with: [("apple", 1)])
        let before = try shop.snapshot()
        let cases = Self.cases(host: shop.host, id: id)
        #expect(cases.count >= 60)
        for hostile in cases {
            let connection = try TestConnection(port: shop.server.port, timeout: 10)
            connection.send(hostile.bytes)
            let status = (try? connection.readHead())?.status
            #expect(status == hostile.status, "\(hostile.name)")
        }
        #expect(try shop.send("GET", "/v1/health").status == 200)
        #expect(try shop.snapshot() == before)
    }

    @Test("a slow-loris client that stops mid-head, or mid-body, is cut off by the idle timeout; others are served meanwhile")
    func slowLoris() throws {
        let shop = try TestShop { $0.connectionTimeout = .seconds(1) }
        let id = try shop.mint()
        let head = try TestConnection(port: shop.server.port, timeout: 5)
        head.send("GET /v1/health HTTP/1.1\r\nHost: \(shop.host)\r\nX-Slow: ")
        let body = try TestConnection(port: shop.server.port, timeout: 5)
        body.send(
            "POST /v1/carts/\(id)/items HTTP/1.1\r\nHost: \(shop.host)\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"sku\":")
        #expect(try shop.send("GET", "/v1/health").status == 200)
        #expect(head.peerClosed())
        #expect(body.peerClosed())
        #expect(try shop.service.cart(id).isEmpty)
    }

    @Test(
        "a request smuggled in the body of one whose Content-Length is folded is never run: the 400 ends the connection",
        arguments: ["items", "items/apple/remove"])
    func foldedHeaderSmuggling(route: String) throws {
        let shop = try TestShop()
        let id = try shop.mint()
        let smuggled = "DELETE /v1/carts/\(id)/items HTTP/1.1\r\nHost: \(shop.host)\r\n\r\n"
        try shop.service.add("apple", to: id)
        let connection = try TestConnection(port: shop.server.port)
        // A proxy that joins the folded line reads a POST with this body; without it, there is
        // none, which `items` refuses and `items/apple/remove` takes.
        connection.send(
            "POST /v1/carts/\(id)/\(route) HTTP/1.1\r\nHost: \(shop.host)\r\nContent-Type: application/json\r\n"
                + "Content-Length:\r\n \(smuggled.utf8.count)\r\n\r\n" + smuggled)
        let response = try connection.readResponse()
        #expect(response.status == 400)
        #expect(connection.peerClosed())
        #expect(try shop.service.cart(id).totalItems == 1)
    }

    @Test("pipelined requests are answered in order; garbage after them gets 400 and ends the connection")
    func pipelinedGarbage() throws {
        let shop = try TestShop()
        let connection = try TestConnection(port: shop.server.port)
        let good = rawRequest("GET", "/v1/health", host: shop.host)
        connection.send(String(repeating: good, count: 20) + "\u{01}\u{02}GARBAGE \r\n\r\n" + good)
        for _ in 0..<20 { #expect(try connection.readResponse().status == 200) }
        #expect(try connection.readHead().status == 400)
        #expect(connection.peerClosed())
        #expect(try shop.send("GET", "/v1/health").status == 200)
    }
}
