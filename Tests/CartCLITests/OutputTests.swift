import Testing

@testable import CartCLI

@Suite("Output for people and machines")
struct OutputTests {
    @Test("JSON strings escape quotes, backslashes, control and separator characters")
    func jsonEscaping() {
        let value = JSONValue.string("a\"b\\c\n\r\t\u{0}\u{1F}\u{7F}\u{2028}é🛒/")
        #expect(value.rendered == #""a\"b\\c\n\r\t\u0000\u001f\u007f\u2028é🛒/""#)
        let object = JSONValue.object([("k", .array([.null, .bool(true), .int(-3), .number("1.50")]))])
        #expect(object.rendered == #"{"k":[null,true,-3,1.50]}"#)
    }

    @Test("whatever a string holds, the JSON written for it parses back to it")
    func jsonRoundTrip() throws {
        var random = SplitMix64(state: 42)
        for _ in 0..<500 {
            let text = ParserPropertyTests.garbage(&random)
            let document = JSONValue.array([.string(text), .object([(text, .string(text))])])
            #expect(try JSONParser.parse(Array(document.rendered.utf8)) == document)
        }
    }

    @Test("CSV fields are quoted only when they must be, with quotes doubled")
    func csvFields() throws {
        #expect(CSVWriter.row(["a", "b c", "1.29"]) == "a,b c,1.29\n")
        #expect(
            CSVWriter.row(["x,y", "say \"hi\"", "two\nlines", " pad"])
                == "\"x,y\",\"say \"\"hi\"\"\",\"two\nlines\",\" pad\"\n")
        let back = try CSVReader(Array(CSVWriter.row(["x,y", "say \"hi\"", "a\r\nb", ""]).utf8)).records()
        #expect(back == [CSVReader.Record(line: 1, fields: ["x,y", "say \"hi\"", "a\r\nb", ""])])
    }

    @Test("tables align columns, right-align numbers and leave no trailing spaces")
    func tables() {
        var table = TextTable([.left("SKU"), .left("NAME"), .right("QTY")])
        table.append(["apple", "Apple", "2"])
        table.append(["kiwi", "A kiwi", "10"])
        #expect(
            table.rendered(style: TextStyle(isEnabled: false))
                == "SKU    NAME    QTY\napple  Apple     2\nkiwi   A kiwi   10\n")
    }

    @Test("colour only on a terminal, without NO_COLOR, and not on a dumb terminal")
    func colour() {
        let arguments = ["products", "add", "apple", "--name", "Apple", "--price", "1.29"]
        let memory = ["CART_STORE": "memory"]
        // `demo` then `products` needs one process; in memory, `demo` itself prints a styled hint.
        #expect(InProcess(["demo"], environment: memory, terminal: true).stdout.contains("\u{1B}["))
        #expect(!InProcess(["demo"], environment: memory, terminal: false).stdout.contains("\u{1B}["))
        #expect(
            !InProcess(["demo"], environment: memory.merging(["NO_COLOR": "1"]) { $1 }, terminal: true).stdout.contains(
                "\u{1B}["))
        #expect(
            !InProcess(["demo"], environment: memory.merging(["TERM": "dumb"]) { $1 }, terminal: true).stdout.contains(
                "\u{1B}["))
        #expect(!InProcess(arguments + ["--json"], environment: memory, terminal: true).stdout.contains("\u{1B}["))
    }

    @Test("the memory store says once, on stderr, that nothing is kept")
    func memoryNotice() {
        let result = InProcess(["demo"])
        #expect(result.status == 0)
        #expect(result.stderr == "Note: --store memory keeps nothing; every change is lost when this command ends.\n")
    }

    @Test("malformed environment values are usage errors naming the variable")
    func environmentValues() {
        let store = InProcess(["show"], environment: ["CART_STORE": "disk"])
        #expect(store.status == 64)
        #expect(store.error == "The value 'disk' is invalid for CART_STORE: expected one of sqlite, memory.")
        let timeout = InProcess(["show"], environment: ["CART_STORE": "memory", "CART_BUSY_TIMEOUT": "-5"])
        #expect(timeout.status == 64 && timeout.error.contains("CART_BUSY_TIMEOUT"))
    }

    @Test("in one process the whole flow works against the memory store")
    func flowInMemory() {
        let result = InProcess(["demo", "--json"])
        #expect(result.stdout == #"{"added":12,"alreadyThere":0}"# + "\n")
    }
}
