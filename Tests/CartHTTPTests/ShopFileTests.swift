@testable import CartHTTP
import CartTestSupport
import Testing

@Suite("The browser shop's static files")
struct ShopFileTests {
    @Test("the page is served at / with its type, a revalidated ETag and a strict policy")
    func page() throws {
        let shop = try TestShop()
        let response = try shop.send("GET", "/?cart=shop_x")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "text/html; charset=utf-8")
        #expect(response.header("Cache-Control") == "no-cache")
        #expect(response.header("X-Content-Type-Options") == "nosniff")
        #expect(response.header("Referrer-Policy") == "same-origin")
        let policy = try #require(response.header("Content-Security-Policy"))
        for directive in [
            "default-src 'self'", "script-src 'self'", "style-src 'self'", "connect-src 'self'", "frame-ancestors 'none'",
            "object-src 'none'", "base-uri 'none'", "require-trusted-types-for 'script'",
        ] {
            #expect(policy.contains(directive))
        }
        #expect(!policy.contains("unsafe"))
        #expect(response.text.hasPrefix("<!doctype html>"))
        let tag = try #require(response.header("ETag"))
        let again = try shop.send("GET", "/", headers: ["If-None-Match: \(tag)"])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        #expect(again.header("Content-Length") == String(response.body.count))
        #expect(again.header("Content-Security-Policy") == policy)
    }

    @Test("every embedded file is served under /shop/ with the type its extension names")
    func files() throws {
        let shop = try TestShop()
        let names = EmbeddedResources.all.keys.filter { $0.hasPrefix(ShopFiles.folder) }.sorted()
        #expect(names.contains(ShopFiles.folder + "main.js"))
        for name in names {
            let file = String(name.dropFirst(ShopFiles.folder.count))
            let response = try shop.send("GET", "/shop/" + file)
            #expect(response.status == 200, "\(file)")
            #expect(response.body == EmbeddedResources.all[name]?.bytes, "\(file)")
            #expect(response.header("Content-Type") == ShopFiles.contentType(of: file), "\(file)")
            #expect(response.header("Content-Security-Policy") != nil, "\(file)")
        }
        #expect(ShopFiles.contentType(of: "main.js") == "text/javascript; charset=utf-8")
        #expect(ShopFiles.contentType(of: "shop.css") == "text/css; charset=utf-8")
        #expect(ShopFiles.contentType(of: "icon.svg") == "image/svg+xml")
    }

    @Test("HEAD gives the headers alone; other methods are 405 with Allow; unknown files 404")
    func methodsAndMisses() throws {
        let shop = try TestShop()
        let head = try shop.send("HEAD", "/shop/shop.css")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.header("Content-Type") == "text/css; charset=utf-8")
        let post = try shop.send("POST", "/")
        #expect(post.status == 405)
        #expect(post.header("Allow") == "GET, HEAD")
        #expect(post.errorCode == "method_not_allowed")
        #expect(try shop.send("GET", "/shop/missing.js").errorCode == "route_not_found")
        #expect(try shop.send("GET", "/shop").status == 404)
        #expect(try shop.send("GET", "/shop/../docs/openapi.yaml").status == 404)
        #expect(try shop.send("GET", "/shop/%2e%2e%2fdocs%2fopenapi.yaml").status == 404)
        #expect(try shop.send("GET", "/index.html").status == 404)
    }

    @Test("the page is refused under a host name that is not loopback's")
    func rebinding() throws {
        let shop = try TestShop(adminToken: nil)
        let connection = try TestConnection(port: shop.server.port)
        connection.send(rawRequest("GET", "/", host: "attacker.example:\(shop.server.port)"))
        #expect(try connection.readResponse().status == 421)
    }
}
