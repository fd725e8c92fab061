import Testing

@testable import CartCLI

@Suite("JSON parser (RFC 8259)")
struct JSONParserTests {
    func parse(_ text: String) throws(JSONParser.Problem) -> JSONValue {
        try JSONParser.parse(Array(text.utf8))
    }

    func rejects(_ bytes: [UInt8]) -> JSONParser.Problem? {
        do {
            _ = try JSONParser.parse(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test("values, escapes and numbers kept as written")
    func values() throws {
        let value = try parse(
            #" { "a" : [1, -0.5, 2e10, 1E-2, true, false, null, "x\"\\\/\b\f\n\r\t\u00e9\ud83d\uded2"] } "#)
        #expect(
            value
                == .object([
                    (
                        "a",
                        .array([
                            .number("1"), .number("-0.5"), .number("2e10"), .number("1E-2"), .bool(true), .bool(false),
                            .null, .string("x\"\\/\u{8}\u{C}\n\r\té🛒"),
                        ])
                    )
                ]))
        #expect(try parse("[]") == .array([]))
        #expect(try parse("{}") == .object([]))
        #expect(try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)) == .array([.number("1")]))
    }

    @Test(
        "malformed documents are refused",
        arguments: [
            "", " ", "[1,]", "[1] x", "{\"a\":1,}", "01", "1.", ".5", "-", "+1", "1e", "NaN", "'a'", "[1 2]",
            "{\"a\" 1}", "{a:1}", "\"\\x\"", "\"\\u12\"", "\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\"",
            "\"a\nb\"", "tru", "nulll", "[", "{\"a\":1,\"a\":2}", "\u{FEFF}\u{FEFF}[]",
        ])
    func malformed(text: String) {
        #expect(rejects(Array(text.utf8)) != nil, "accepted \(text.debugDescription)")
    }

    @Test("invalid UTF-8 inside a string is refused")
    func invalidUTF8() {
        #expect(rejects([0x22, 0xFF, 0x22])?.message == "A string is not valid UTF-8.")
        #expect(rejects([0x22, 0xED, 0xA0, 0x80, 0x22]) != nil)
    }

    @Test("problems carry their line and column")
    func positions() {
        #expect(
            rejects(Array("[\n  1,\n  x]".utf8))
                == .init(line: 3, column: 3, message: "Unexpected character; expected a value."))
        #expect(rejects(Array("{\"k\": 1, \"k\": 2}".utf8))?.message == "The key \"k\" appears twice.")
    }

    @Test("deep nesting is refused rather than overflowing the stack")
    func depth() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(rejects(Array(deep.utf8))?.message.contains("deeper") == true)
        let fine = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        #expect(rejects(Array(fine.utf8)) == nil)
    }
}
