import CartTestSupport
import HTTPServer
import Testing

@Suite("Routing and request decoding over real sockets")
struct RoutingTests {
    /// Echoes what the server decoded, one `key=value` per line.
    static let echo: HTTPHandler = { request in
        var lines = ["method=\(request.method)", "target=\(request.target)", "version=\(request.version)"]
        switch request.path {
        case .success(let segments): lines.append("path=" + segments.map { "[\($0)]" }.joined())
        case .failure(let error): lines.append("path-error=\(error)")
        }
        switch request.query {
        case .success(let query): lines += query.items.map { "query[\($0.name)]=\($0.value)" }
        case .failure(let error): lines.append("query-error=\(error)")
        }
        lines.append("x-test=\(request.headers["X-TEST"] ?? "-")")
        lines.append("remote=\(request.remoteAddress ?? "-")")
        lines.append("body=\(String(decoding: request.body, as: UTF8.self))")
        return .text(lines.joined(separator: "\n"))
    }

    func exchange(_ raw: String) throws -> TestResponse {
        let server = try startServer(handler: Self.echo)
        defer { server.stop() }
        let connection = try TestConnection(port: server.port)
        connection.send(raw)
        return try connection.readResponse()
    }

    @Test("the server reports the port the system picked for port 0")
    func realPort() throws {
        let server = try startServer { _ in .text("ok") }
        defer { server.stop() }
        #expect(server.port != 0)
        #expect(server.host == "127.0.0.1")
        #expect(server.authority == "127.0.0.1:\(server.port)")
    }

    @Test("method, path segments, headers and body reach the handler as sent")
    func methodPathBody() throws {
        let response = try exchange(rawRequest("POST", "/v1/carts/abc/items", headers: ["x-TeSt: yes"], body: "{}"))
        #expect(response.status == 200)
        #expect(response.text.contains("method=POST\n"))
        #expect(response.text.contains("path=[v1][carts][abc][items]\n"))
        #expect(response.text.contains("x-test=yes\n"))
        #expect(response.text.contains("remote=127.0.0.1\n"))
        #expect(response.text.hasSuffix("body={}"))
    }

    @Test("routes differ by method and path")
    func routing() throws {
        let server = try startServer { request in
            let segments = (try? request.path.get()) ?? []
            if segments == ["health"] {
                return request.method == "GET" ? .text("healthy") : .text("no", status: 405, headers: ["Allow": "GET"])
            }
            if request.method == "DELETE", segments.count == 2, segments[0] == "items" {
                return .text("deleted \(segments[1])")
            }
            return .text("missing", status: 404)
        }
        defer { server.stop() }
        let connection = try TestConnection(port: server.port)
        connection.send(rawRequest("GET", "/health"))
        #expect(try connection.readResponse().text == "healthy")
        connection.send(rawRequest("DELETE", "/items/a%20b"))
        #expect(try connection.readResponse().text == "deleted a b")
        connection.send(rawRequest("POST", "/health"))
        let refused = try connection.readResponse()
        #expect(refused.status == 405)
        #expect(refused.header("Allow") == "GET")
        connection.send(rawRequest("GET", "/nothing"))
        #expect(try connection.readResponse().status == 404)
    }

    @Test("the root path has no segments, and empty segments are kept")
    func rootAndEmptySegments() throws {
        #expect(try exchange(rawRequest("GET", "/")).text.contains("path=\n"))
        #expect(try exchange(rawRequest("GET", "/a//b/")).text.contains("path=[a][][b][]\n"))
    }

    @Test("query parameters keep repeats and order; + is a space; a bare name has an empty value")
    func query() throws {
        let text = try exchange(rawRequest("GET", "/orders?sku=a&limit=5&sku=b+c&flag&&name=%C3%A9t%C3%A9")).text
        #expect(
            text.contains(
                "query[sku]=a\nquery[limit]=5\nquery[sku]=b c\nquery[flag]=\nquery[name]=été\n"))
    }

    @Test("libmicrohttpd passes the target through undecoded: %2F stays inside its segment")
    func encodedSlash() throws {
        let text = try exchange(rawRequest("GET", "/v1/products/a%2Fb%2F..%2Fc?x=%26%3D")).text
        #expect(text.contains("target=/v1/products/a%2Fb%2F..%2Fc?x=%26%3D\n"))
        #expect(text.contains("path=[v1][products][a/b/../c]\n"))
        #expect(text.contains("query[x]=&=\n"))
    }

    @Test("dot segments, plain or encoded, are reported rather than resolved")
    func dotSegments() throws {
        for target in ["/v1/../etc/passwd", "/v1/%2e%2E/x", "/./a", "/a/.%2e", "/a/%2E"] {
            #expect(try exchange(rawRequest("GET", target)).text.contains("path-error=\(HTTPTargetError.dotSegment)"))
        }
    }

    @Test("NUL, CR, LF and broken or non-UTF-8 percent-encoding are reported")
    func badEncodings() throws {
        let cases: [(String, HTTPTargetError)] = [
            ("/a%00b", .controlCharacter), ("/a%0D%0ASet-Cookie:x", .controlCharacter),
            ("/a%zz", .invalidPercentEncoding), ("/a%4", .invalidPercentEncoding),
            ("/a%C0%AE", .invalidUTF8), ("/a%FF", .invalidUTF8), ("/a%ED%A0%80", .invalidUTF8),
        ]
        for (target, error) in cases {
            #expect(try exchange(rawRequest("GET", target)).text.contains("path-error=\(error)"), "\(target)")
        }
        #expect(try exchange(rawRequest("GET", "/a?x=%00")).text.contains("query-error=\(HTTPTargetError.controlCharacter)"))
    }

    @Test("an absolute-form target arrives as its path; another form is reported as not origin-form")
    func absoluteForm() throws {
        let text = try exchange("GET http://example.com/a?b=1 HTTP/1.1\r\nHost: example.com\r\n\r\n").text
        #expect(text.contains("path=[a]\n"))
        #expect(text.contains("query[b]=1\n"))
        let other = try exchange("GET ftp://example.com/a HTTP/1.1\r\nHost: example.com\r\n\r\n").text
        #expect(other.contains("path-error=\(HTTPTargetError.notOriginForm)"))
    }

    @Test("raw bytes that are not UTF-8 in the target are reported, and shown as U+FFFD")
    func rawInvalidUTF8() throws {
        let server = try startServer(handler: Self.echo)
        defer { server.stop() }
        let connection = try TestConnection(port: server.port)
        connection.send(Array("GET /caf".utf8) + [0xE9] + Array(" HTTP/1.1\r\nHost: t\r\n\r\n".utf8))
        let text = try connection.readResponse().text
        #expect(text.contains("path-error=\(HTTPTargetError.invalidUTF8)"))
        #expect(text.contains("target=/caf\u{FFFD}\n"))
    }

    @Test("a raw control character in the target is reported")
    func rawControlCharacter() throws {
        let text = try exchange("GET /a\u{1B}[2Jb HTTP/1.1\r\nHost: t\r\n\r\n").text
        #expect(text.contains("path-error=\(HTTPTargetError.invalidCharacter)"))
    }

    @Test("a raw NUL cuts the target short: libmicrohttpd reads the request line as a C string")
    func rawNul() throws {
        let text = try exchange("GET /a\u{0}/../b HTTP/1.1\r\nHost: t\r\n\r\n").text
        #expect(text.contains("target=/a\n"))
        #expect(text.contains("path=[a]\n"))
    }

    @Test("HEAD gets the headers of GET and no body")
    func head() throws {
        let server = try startServer { _ in .text("twelve bytes") }
        defer { server.stop() }
        let connection = try TestConnection(port: server.port)
        connection.send(rawRequest("HEAD", "/x"))
        let response = try connection.readResponse(bodyExpected: false)
        #expect(response.status == 200)
        #expect(response.header("Content-Length") == "12")
        connection.send(rawRequest("GET", "/x"))
        #expect(try connection.readResponse().text == "twelve bytes")
    }

    @Test("an HTTP/1.1 request without Host is refused with 400")
    func missingHost() throws {
        let response = try exchange("GET / HTTP/1.1\r\n\r\n")
        #expect(response.status == 400)
    }
}
