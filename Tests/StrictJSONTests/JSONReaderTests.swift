import StrictJSON
import Testing

@Suite("The strict JSON reader (RFC 8259)")
struct JSONReaderTests {
    func parse(_ text: String, maxDepth: Int = 256) throws(JSONReader.Problem) -> JSONValue {
        try JSONReader.parse(Array(text.utf8), maxDepth: maxDepth)
    }

    func problem(_ bytes: [UInt8], maxDepth: Int = 256) -> JSONReader.Problem? {
        do {
            _ = try JSONReader.parse(bytes, maxDepth: maxDepth)
            return nil
        } catch {
            return error
        }
    }

    func problem(_ text: String) -> JSONReader.Problem? {
        problem(Array(text.utf8))
    }

    @Test("values, escapes and numbers kept as written, members in order")
    func values() throws {
        let value = try parse(
            #" { "a" : [1, -0.5, 2e10, 1E-2, true, false, null, "x\"\\\/\b\f\n\r\t\u00e9\ud83d\uded2"], "b": {} } "#)
        #expect(
            value
                == .object([
                    JSONMember(
                        "a",
                        .array([
                            .number("1"), .number("-0.5"), .number("2e10"), .number("1E-2"), .bool(true), .bool(false),
                            .null, .string("x\"\\/\u{8}\u{C}\n\r\té🛒"),
                        ])),
                    JSONMember("b", .object([])),
                ]))
        #expect(value["b"] == .object([]))
        #expect(value["c"] == nil)
        #expect(try parse("[]") == .array([]))
        #expect(try parse("{}") == .object([]))
        #expect(try parse(#""\ud83d\ude00 é""#) == .string("😀 é"))
    }

    @Test(
        "malformed documents are refused",
        arguments: [
            "", " ", "[1,]", "[1] x", "{\"a\":1,}", "01", "1.", ".5", "-", "+1", "1e", "NaN", "'a'", "[1 2]",
            "{\"a\" 1}", "{a:1}", "\"\\x\"", "\"\\u12\"", "\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\"",
            "\"a\nb\"", "tru", "nulll", "[", "{\"a\":1,\"a\":2}", "\u{FEFF}[]",
        ])
    func malformed(text: String) {
        #expect(problem(text) != nil, "accepted \(text.debugDescription)")
    }

    @Test(
        "a problem names the byte where the text stops being JSON",
        arguments: [
            ("", 0), ("{", 1), (#"{"a":1,}"#, 7), (#"[1,]"#, 3), (#"{"a":1,"a":2}"#, 7), ("01", 1), ("-", 1), ("1.", 2),
            ("1e", 2), (#""\ud800""#, 7), (#""\x""#, 2), ("\"a\tb\"", 2), ("tru", 3), ("nul", 3), ("[1] [2]", 4), ("'a'", 0),
            (#"{"a" 1}"#, 5), ("\u{FEFF}{}", 0),
        ])
    func offsets(text: String, offset: Int) {
        #expect(problem(text)?.offset == offset, "\(text.debugDescription)")
    }

    @Test("problems carry their line and column, and say what is wrong")
    func positions() {
        #expect(problem("[\n  1,\n  x]") == .init(offset: 9, line: 3, column: 3, reason: "expected a value"))
        #expect(problem(#"{"k": 1, "k": 2}"#)?.reason == #"the key "k" appears twice"#)
        #expect(problem("[1,")?.reason == "the text ends early")
        #expect(problem("[1 2]")?.reason == "expected ',' or ']' after an element")
    }

    @Test("bytes that are not UTF-8 are refused where they start, inside strings or out")
    func invalidUTF8() {
        #expect(
            problem([UInt8(ascii: "\""), UInt8(ascii: "a"), 0xC0, 0xAF, UInt8(ascii: "\"")])
                == .init(offset: 2, line: 1, column: 3, reason: "a byte that is not UTF-8"))
        #expect(problem([0x22, 0xED, 0xA0, 0x80, 0x22])?.offset == 1)
        #expect(problem([0x5B, 0xFF, 0x5D])?.reason == "a byte that is not UTF-8")
    }

    @Test("nesting is refused past the limit, and accepted up to it")
    func nesting() throws {
        func nested(_ depth: Int) -> String { String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth) }
        _ = try parse(nested(32), maxDepth: 32)
        #expect(problem(Array(nested(33).utf8), maxDepth: 32)?.reason == "nesting deeper than 32 levels")
        #expect(problem(Array(nested(100_000).utf8))?.reason == "nesting deeper than 256 levels")
        #expect(try parse("1", maxDepth: 0) == .number("1"))
    }
}
