import CartTestSupport
import HTTPServer
import Testing

@Suite("Target decoding and headers, without sockets")
struct DecodingTests {
    @Test(
        "paths decode once, per segment",
        arguments: [
            ("/", []), ("/a/b", ["a", "b"]), ("/a%2Fb", ["a/b"]), ("/%252e%252e", ["%2e%2e"]),
            ("/a+b", ["a+b"]), ("/caf%C3%A9", ["café"]), ("/a%20b", ["a b"]), ("/...", ["..."]),
            ("/.a", [".a"]), ("/a\\..\\b", ["a\\..\\b"]), ("/x?y=/../", ["x"]),
        ] as [(String, [String])])
    func paths(target: String, segments: [String]) throws {
        #expect(try HTTPRequest(method: "GET", target: target).path.get() == segments)
    }

    @Test(
        "an absolute-form target stands for its path and query, and names the authority",
        arguments: [
            ("http://127.0.0.1:8080/v1/health?x=1", "127.0.0.1:8080", ["v1", "health"], ["x"]),
            ("HTTP://example.com", "example.com", [], []), ("Http://h?y=2", "h", [], ["y"]),
            ("http://[::1]/a%2Fb", "[::1]", ["a/b"], []),
        ] as [(String, String, [String], [String])])
    func absoluteForm(target: String, authority: String, segments: [String], names: [String]) throws {
        let request = HTTPRequest(method: "GET", target: target)
        #expect(request.authority == authority)
        #expect(try request.path.get() == segments)
        #expect(try request.query.get().items.map(\.name) == names)
        #expect(request.target == target)
        #expect(HTTPRequest(method: "GET", target: "/v1/health").authority == nil)
    }

    @Test(
        "unsafe paths are reported",
        arguments: [
            ("*", .notOriginForm), ("", .notOriginForm), ("ftp://a/b", .notOriginForm), ("http:///b", .notOriginForm),
            ("http://a b/c", .notOriginForm), ("a/b", .notOriginForm),
            ("/..", .dotSegment), ("/a/.", .dotSegment), ("/%2E%2e", .dotSegment), ("/a/%2e/b", .dotSegment),
            ("/a%", .invalidPercentEncoding), ("/a%g0", .invalidPercentEncoding), ("/%%41", .invalidPercentEncoding),
            ("/a%00", .controlCharacter), ("/a%7F", .controlCharacter), ("/a%0a", .controlCharacter),
            ("/a%C3", .invalidUTF8), ("/%E0%80%AF", .invalidUTF8), ("/%F4%90%80%80", .invalidUTF8),
            ("/a b", .invalidCharacter), ("/a\tb", .invalidCharacter),
        ] as [(String, HTTPTargetError)])
    func unsafePaths(target: String, error: HTTPTargetError) {
        #expect(throws: error) { try HTTPRequest(method: "GET", target: target).path.get() }
    }

    @Test("query parameters decode + and percent-escapes; bad ones are reported")
    func queries() throws {
        let query = try HTTPRequest(method: "GET", target: "/?a=1&b=&c&a=x%2By+z&=v&%C3%A9=%26").query.get()
        #expect(query.value("a") == "1")
        #expect(query.values("a") == ["1", "x+y z"])
        #expect(query.value("b") == "")
        #expect(query.value("c") == "")
        #expect(query.value("") == "v")
        #expect(query.value("é") == "&")
        #expect(query.value("missing") == nil)
        #expect(throws: HTTPTargetError.invalidPercentEncoding) { try HTTPRequest(method: "GET", target: "/?a=%").query.get() }
        #expect(throws: HTTPTargetError.invalidUTF8) { try HTTPRequest(method: "GET", target: "/?a=%FF").query.get() }
    }

    @Test("header names compare without case; order and repeats are kept")
    func headers() {
        var headers: HTTPHeaders = ["Content-Type": "text/plain", "Vary": "Accept"]
        headers.add("vary", "Origin")
        #expect(headers["content-TYPE"] == "text/plain")
        #expect(headers.values(for: "VARY") == ["Accept", "Origin"])
        headers.set("VARY", "Cookie")
        #expect(headers.values(for: "vary") == ["Cookie"])
        headers.remove("content-type")
        #expect(headers["Content-Type"] == nil)
        #expect(headers == HTTPHeaders([(name: "vary", value: "Cookie")]))
        #expect(HTTPHeaders([(name: "Ä", value: "1")])["ä"] == nil)
        // Names are compared byte by byte: canonically equivalent text of the same length (Ḋ with
        // a dot below, Ḍ with a dot above) is another name.
        #expect(HTTPHeaders([(name: "\u{1E0A}\u{0323}", value: "1")])["\u{1E0C}\u{0307}"] == nil)
    }
}
