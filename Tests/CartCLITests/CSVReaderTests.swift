import Testing

@testable import CartCLI

@Suite("CSV reader (RFC 4180)")
struct CSVReaderTests {
    func records(_ text: String) throws(CSVReader.Problem) -> [CSVReader.Record] {
        try CSVReader(Array(text.utf8)).records()
    }

    func problem(_ bytes: [UInt8]) -> CSVReader.Problem? {
        do {
            _ = try CSVReader(bytes).records()
            return nil
        } catch {
            return error
        }
    }

    @Test("quoted fields hold commas, doubled quotes and line breaks; lines are counted through them")
    func quoting() throws {
        let parsed = try records("sku,name\r\n\"a,1\",\"say \"\"hi\"\"\"\r\nb,\"two\nlines\"\nc,\"\"\n")
        #expect(parsed.map(\.fields) == [["sku", "name"], ["a,1", "say \"hi\""], ["b", "two\nlines"], ["c", ""]])
        #expect(parsed.map(\.line) == [1, 2, 3, 5])
    }

    @Test("a lone CR ends a record, as README.md says, while one inside quotes is kept")
    func loneCarriageReturn() throws {
        let parsed = try records("sku,name\ra,\"x\ry\"\rb,B")
        #expect(parsed.map(\.fields) == [["sku", "name"], ["a", "x\ry"], ["b", "B"]])
        #expect(parsed.map(\.line) == [1, 2, 3])
    }

    @Test("a byte order mark is skipped, blank lines are skipped, a last line may lack its newline")
    func edges() throws {
        let parsed = try CSVReader([0xEF, 0xBB, 0xBF] + Array("a,b\n\n\nc,\n".utf8)).records()
        #expect(parsed == [.init(line: 1, fields: ["a", "b"]), .init(line: 4, fields: ["c", ""])])
        #expect(try records("x") == [.init(line: 1, fields: ["x"])])
        #expect(try records("") == [])
    }

    @Test("a quote never closed, that later quotes seem to close, is named at the line its record starts")
    func unclosedQuoteRunsOn() {
        var text = "sku,name,price\n"
        for number in 2...1000 {
            text += number == 501 ? "sku-501,\"Open name,1.00\n" : "sku-\(number),\"Name \(number)\",1.00\n"
        }
        #expect(
            problem(Array(text.utf8))
                == .init(
                    line: 501,
                    message: "A quoted field is never closed: read as one field, it runs on to line 502."))
        #expect(
            problem(Array("a,\"x\ny\"z\n".utf8))
                == .init(line: 1, message: "A quoted field is never closed: read as one field, it runs on to line 2."))
    }

    @Test("malformed quoting is refused, naming the line")
    func malformed() {
        #expect(problem(Array("a\n\"open,b\nc\n".utf8)) == .init(line: 2, message: "A quoted field is never closed."))
        #expect(problem(Array("a\nb\"c\n".utf8))?.line == 2)
        #expect(
            problem(Array("a\n\"b\"c\n".utf8)) == .init(line: 2, message: "Unexpected character after a closing quote.")
        )
    }

    @Test("invalid UTF-8 is an error naming its line")
    func invalidUTF8() {
        for bad: [UInt8] in [[0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xC0, 0xAF]] {
            #expect(
                problem(Array("sku\nok\n".utf8) + bad + [0x0A])
                    == .init(line: 3, message: "The text is not valid UTF-8."))
        }
    }
}
