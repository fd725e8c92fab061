@testable import CartHTTP
import Testing

@Suite("The strict JSON reader of request bodies")
struct JSONInputParserTests {
    @Test("values as RFC 8259 writes them")
    func values() throws {
        let value = try JSONInputParser.parse(Array(#" {"a":[1,-0.5,2e3,true,false,null],"b":"x\"\u00e9\ud83d\ude00\n"} "#.utf8))
        #expect(value["a"]?.array == [.number("1"), .number("-0.5"), .number("2e3"), .bool(true), .bool(false), .null])
        #expect(value["b"]?.string == "x\"é😀\n")
        #expect(try JSONInputParser.parse(Array("[]".utf8)) == .array([]))
        #expect(try JSONInputParser.parse(Array("{}".utf8)) == .object([:]))
    }

    @Test(
        "what a lenient parser lets through is refused, naming the byte",
        arguments: [
            ("", 0), ("{", 1), (#"{"a":1,}"#, 7), (#"[1,]"#, 3), (#"{"a":1,"a":2}"#, 7), ("01", 1), ("-", 1), ("1.", 2),
            ("1e", 2), (#""\ud800""#, 7), (#""\x""#, 2), ("\"a\tb\"", 2), ("tru", 3), ("nul", 3), ("[1] [2]", 4), ("'a'", 0),
            (#"{"a" 1}"#, 5), ("\u{FEFF}{}", 0),
        ])
    func refused(text: String, offset: Int) {
        #expect(throws: JSONInputParser.Problem.self) { try JSONInputParser.parse(Array(text.utf8)) }
        do {
            _ = try JSONInputParser.parse(Array(text.utf8))
        } catch {
            #expect(error.offset == offset, "\(text)")
        }
    }

    @Test("bytes that are not UTF-8 are refused where they start")
    func invalidUTF8() {
        #expect(throws: JSONInputParser.Problem(offset: 2, reason: "a byte that is not UTF-8")) {
            try JSONInputParser.parse([UInt8(ascii: "\""), UInt8(ascii: "a"), 0xC0, 0xAF, UInt8(ascii: "\"")])
        }
    }

    @Test("nesting is refused past the limit, and accepted up to it")
    func nesting() throws {
        let depth = JSONInputParser.maxDepth
        _ = try JSONInputParser.parse(Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8))
        #expect(throws: JSONInputParser.Problem.self) {
            try JSONInputParser.parse(Array((String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1)).utf8))
        }
    }
}
