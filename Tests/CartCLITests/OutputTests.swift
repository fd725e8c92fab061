import CartCore
import CartTestSupport
import StrictJSON
import Foundation
import Testing

@testable import CartCLI

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Output for people and machines")
struct OutputTests {
    /// One line of JSON, as `--json` writes it.
    static func json(_ value: some Encodable) throws -> String {
        String(decoding: try CartJSON.encoder().encode(value), as: UTF8.self)
    }

    @Test("JSON output escapes quotes, backslashes and control characters, and sorts keys")
    func jsonEscaping() throws {
        #expect(try Self.json(["a\"b\\c\n\r\t\u{0}\u{1F}é🛒/"]) == #"["a\"b\\c\n\r\t\u0000\u001fé🛒/"]"#)
        #expect(try Self.json(["b": 1, "a": 2]) == #"{"a":2,"b":1}"#)
    }

    @Test("whatever a string holds, the JSON written for it parses back to it")
    func jsonRoundTrip() throws {
        var random = SplitMix64(seed: 42)
        for _ in 0..<500 {
            let text = ParserPropertyTests.garbage(&random)
            let list = try Self.json([text])
            #expect(try JSONReader.parse(Array(list.utf8), maxDepth: 2) == .array([.string(text)]), "\(list)")
            let object = try Self.json([text: text])
            #expect(try JSONReader.parse(Array(object.utf8), maxDepth: 2) == .object([JSONMember(text, .string(text))]), "\(object)")
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

    @Test("a quote or space joined to a combining mark is still quoted and doubled (found by the csv fuzzer)")
    func csvCombiningMarks() throws {
        let fields = ["Kiwi \"\u{06E3}gold\"", " \u{0301}lead", "trail \u{0301}"]
        #expect(CSVWriter.field(fields[0]) == "\"Kiwi \"\"\u{06E3}gold\"\"\"")
        let back = try CSVReader(Array(("header\n" + CSVWriter.row(fields)).utf8)).records()
        #expect(back.last?.fields == fields)
    }

    @Test("a sentence continuing after a colon starts in lower case, unless its first word is an acronym")
    func continuing() {
        #expect(TextLayout.continuing("The file is damaged.") == "the file is damaged.")
        #expect(TextLayout.continuing("SQLite refused.") == "SQLite refused.")
        #expect(TextLayout.continuing("I/O error.") == "I/O error.")
        #expect(TextLayout.continuing("") == "")
    }

    @Test("a closed pipe ends the output silently; any other failed write says why")
    func writeFailures() {
        #expect(FileDescriptorOutput.failure(errno: EPIPE) is OutputClosed)
        let full = FileDescriptorOutput.failure(errno: ENOSPC)
        #expect((full as? OutputFailed)?.reason == "No space left on device")
        #expect(ErrorReporter.describe(full, location: nil).0 == "Cannot write output: No space left on device.")
        #expect(ErrorReporter.describe(OutputClosed(), location: nil).0 == nil)
    }

    @Test("a change the store went out of reach committing exits 74 and says to look before trying again")
    func outcomeUnknown() {
        struct Undecided: CategorizedError, CustomStringConvertible {
            var category: ErrorCategory { .outcomeUnknown }
            var reason: String? { "the server ended the session while the change was being committed, so it may or may not have been saved" }
            var description: String { "PostgreSQL error 57P01: terminating connection due to administrator command - while executing COMMIT" }
        }
        let (message, status) = ErrorReporter.describe(Undecided(), location: "postgresql://shop@db.internal/shop")
        #expect(status == 74)
        #expect(
            message == "The store 'postgresql://shop@db.internal/shop' went out of reach: the server ended the session while the "
                + "change was being committed, so it may or may not have been saved. Look before trying again: as it is, a "
                + "retry could make the change twice.")
    }

    @Test("tables align columns, right-align numbers and leave no trailing spaces")
    func tables() {
        var table = TextTable([.left("SKU"), .left("NAME"), .right("QTY")])
        table.append(["apple", "Apple", "2"])
        table.append(["kiwi", "A kiwi", "10"])
        #expect(
            table.rendered(style: TextStyle(isEnabled: false))
                == "SKU    NAME    QTY\napple  Apple     2\nkiwi   A kiwi   10\n")
        // Stored text another client wrote cannot colour the terminal or break the columns.
        var hostile = TextTable([.left("SKU"), .left("NAME")])
        hostile.append(["a\tb", "Bad\u{1B}[31mname\u{202E}"])
        #expect(hostile.rendered(style: TextStyle(isEnabled: false)) == "SKU   NAME\na\\tb  Bad\\u{1B}[31mname\\u{202E}\n")
    }

    @Test("a table wider than the terminal shortens its names to fit, with '…', never below 12 columns")
    func shrinkingTables() {
        var table = TextTable([.left("SKU"), .shrinking("NAME"), .right("PRICE")])
        table.append(["mug", "Coffee ☕ mug with a very long name", "$9.50"])
        table.append(["tea", "Tea", "$3.00"])
        let fitted = table.rendered(style: TextStyle(isEnabled: false, lineWidth: 30))
        #expect(fitted == "SKU  NAME                PRICE\nmug  Coffee ☕ mug wit…  $9.50\ntea  Tea                 $3.00\n")
        #expect(fitted.split(separator: "\n").allSatisfy { TerminalWidth.of(String($0)) <= 30 })
        // Wide enough, or off a terminal: nothing changes.
        let whole = "SKU  NAME                                 PRICE\nmug  Coffee ☕ mug with a very long name  $9.50\ntea  Tea                                  $3.00\n"
        #expect(table.rendered(style: TextStyle(isEnabled: false, lineWidth: 47)) == whole)
        #expect(table.rendered(style: TextStyle(isEnabled: false, lineWidth: 46)).contains("Coffee ☕ mug with a very long na…  $9.50"))
        #expect(table.rendered(style: TextStyle(isEnabled: false)) == whole)
        // A very narrow terminal keeps 12 columns of the name.
        let narrow = table.rendered(style: TextStyle(isEnabled: false, lineWidth: 10))
        #expect(narrow.contains("mug  Coffee ☕ m…  $9.50"))
        // A wide character that would straddle the edge is left out whole.
        #expect(TextTable.shortened("ラーメン大盛り", to: 6) == "ラー…")
        #expect(TextTable.shortened("ab   cdef", to: 6) == "ab…")
        #expect(TextTable.shortened("abcdef", to: 6) == "abcdef")
    }

    @Test("on a terminal, 'show' fits the terminal's width, or COLUMNS; piped, names stay whole")
    func showFitsTheTerminal() throws {
        let name = String(repeating: "Long name ", count: 12).trimmingCharacters(in: .whitespaces)
        let script = ["products", "add", "long", "--name", name, "--price", "1.50"]
        let directory = try TemporaryDirectory()
        let store = ["CART_DB": directory.path("shop.sqlite3")]
        #expect(InProcess(script, environment: store).status == 0)
        #expect(InProcess(["add", "long"], environment: store).status == 0)
        let fitted = InProcess(["show"], environment: store, terminal: true, terminalColumns: 60).stdout
        let row = try #require(fitted.split(separator: "\n").first { $0.hasPrefix("long") })
        #expect(row == "long  Long name Long name Long name Long…    1  $1.50  $1.50")
        #expect(TerminalWidth.of(String(row)) <= 60)
        let byVariable = InProcess(
            ["show"], environment: store.merging(["COLUMNS": "50"]) { $1 }, terminal: true, terminalColumns: 200)
        #expect(byVariable.stdout.contains("long  Long name Long name Long…    1"))
        let piped = InProcess(["show"], environment: store.merging(["COLUMNS": "50"]) { $1 })
        #expect(piped.stdout.contains(name))
        let json = InProcess(["show", "--json"], environment: store, terminal: true, terminalColumns: 40)
        #expect(json.stdout.contains(name))
    }

    @Test("terminal width: wide scripts and emoji take 2 columns, marks and zero-width characters 0")
    func terminalWidth() {
        for (text, width) in [
            ("abc", 3), ("ラーメン大盛り", 14), ("Coffee ☕ mug", 13), ("中文", 4), ("한국어", 6), ("１２", 4),
            ("ｱｲ", 2), ("é", 1), ("e\u{301}", 1), ("\u{301}", 0), ("a\u{200B}b", 2), ("\u{200D}", 0),
            ("👍🏽", 2), ("👨‍👩‍👧", 2), ("🇯🇵", 2), ("☺", 1), ("☺\u{FE0F}", 2), ("1\u{FE0F}\u{20E3}", 2),
            ("\u{1100}\u{1161}\u{11A8}", 2), ("𠀋", 2), ("", 0), ("Crème brûlée", 12),
        ] {
            #expect(TerminalWidth.of(text) == width, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test("printable ASCII takes its byte count; text with anything else is measured per character")
    func asciiFastPath() {
        let printable = String((0x20...0x7E).map { Character(Unicode.Scalar(UInt8($0))) })
        #expect(TerminalWidth.of(printable) == 95)
        #expect(TerminalWidth.of(printable) == printable.reduce(0) { $0 + TerminalWidth.of($1) })
        #expect(TerminalWidth.of("a\tb") == 2)
        #expect(TerminalWidth.of("a\u{7F}b") == 2)
        #expect(TerminalWidth.of("caf\u{65}\u{301}") == 4)
    }

    @Test("tables align by terminal width, so wide characters and emoji keep the columns straight")
    func wideTables() {
        var table = TextTable([.left("SKU"), .left("NAME"), .right("PRICE")])
        table.append(["ramen", "ラーメン大盛り", "¥980"])
        table.append(["mug", "Coffee ☕ mug", "¥1500"])
        table.append(["tea", "Te\u{301}", "¥300"])
        #expect(
            table.rendered(style: TextStyle(isEnabled: false)) == """
                SKU    NAME            PRICE
                ramen  ラーメン大盛り   ¥980
                mug    Coffee ☕ mug   ¥1500
                tea    Té               ¥300

                """)
    }

    @Test("colour only on a terminal, without a non-empty NO_COLOR, and not on a dumb terminal")
    func colour() {
        let arguments = ["products", "add", "apple", "--name", "Apple", "--price", "1.29"]
        let memory = ["CART_DB": "memory:"]
        // `demo` then `products` needs one process; in memory, `demo` itself prints a styled hint.
        #expect(InProcess(["demo"], environment: memory, terminal: true).stdout.contains("\u{1B}["))
        #expect(!InProcess(["demo"], environment: memory, terminal: false).stdout.contains("\u{1B}["))
        #expect(
            !InProcess(["demo"], environment: memory.merging(["NO_COLOR": "1"]) { $1 }, terminal: true).stdout.contains(
                "\u{1B}["))
        // no-color.org: only a non-empty NO_COLOR turns colour off; the README says an empty
        // variable counts as unset.
        #expect(
            InProcess(["demo"], environment: memory.merging(["NO_COLOR": ""]) { $1 }, terminal: true).stdout.contains(
                "\u{1B}["))
        #expect(
            !InProcess(["demo"], environment: memory.merging(["TERM": "dumb"]) { $1 }, terminal: true).stdout.contains(
                "\u{1B}["))
        #expect(!InProcess(arguments + ["--json"], environment: memory, terminal: true).stdout.contains("\u{1B}["))
    }

    @Test("the in-memory store says once, on stderr, that nothing is kept")
    func memoryNotice() {
        let note = "Note: the in-memory store keeps nothing; every change is lost when this command ends.\n"
        let result = InProcess(["demo"])
        #expect(result.status == 0)
        #expect(result.stderr == note)
        #expect(!result.stdout.contains("kept between runs"), "\(result.stdout)")
        // Every command says it, even those that never open the store.
        for arguments in [["db", "check"], ["db", "migrate"], ["orders"], ["carts", "--json"]] {
            #expect(InProcess(arguments).stderr == note, "\(arguments)")
        }
        #expect(InProcess(["--db", "memory:", "show"], environment: [:]).stderr == note)
    }

    @Test("with the in-memory store a failure is the one error line")
    func memoryNoticeAndFailures() {
        let failed = InProcess(["add", "apple"])
        #expect(failed.status == 1)
        #expect(failed.stderr == "Error: No product with SKU 'apple'.\n")
    }

    @Test("--store and CART_STORE still choose the in-memory store, and say they are deprecated")
    func deprecatedStoreAlias() throws {
        #expect(
            InProcess(["--store", "memory", "show"], environment: [:]).stderr
                == "Note: the in-memory store keeps nothing; every change is lost when this command ends "
                + "('--store memory' is deprecated; use '--db memory:').\n")
        // CART_STORE=memory overrides CART_DB, as it always did, so it never writes to that file.
        #expect(
            InProcess(["show"], environment: ["CART_STORE": "memory", "CART_DB": "/nonexistent/x.sqlite3"]).stderr
                == "Note: the in-memory store keeps nothing and ignores CART_DB; every change is lost when this command "
                + "ends (CART_STORE=memory is deprecated; use CART_DB=memory:).\n")
        let both = InProcess(["--store", "memory", "--db", "memory:", "show"], environment: [:])
        #expect(both.status == 64)
        #expect(both.error == "'--db' and '--store' both choose the store; give only '--db' ('--store memory' is '--db memory:').")
        // A --db on the command line beats CART_STORE in the environment, as a flag beats a variable.
        let sandbox = try CartSandbox()
        let onDisk = InProcess(["--db", sandbox.database, "demo"], environment: ["CART_STORE": "memory"])
        #expect(onDisk.status == 0 && onDisk.stderr.isEmpty, "\(onDisk.stderr)")
        #expect(FileManager.default.fileExists(atPath: sandbox.database))
    }

    @Test("malformed environment values are usage errors naming the variable")
    func environmentValues() {
        let store = InProcess(["show"], environment: ["CART_STORE": "disk"])
        #expect(store.status == 64)
        #expect(store.error == "The value 'disk' is invalid for CART_STORE: expected one of sqlite, memory.")
        let timeout = InProcess(["show"], environment: ["CART_DB": "memory:", "CART_BUSY_TIMEOUT": "-5"])
        #expect(timeout.status == 64 && timeout.error.contains("CART_BUSY_TIMEOUT"))
    }

    @Test("in one process the whole flow works against the memory store")
    func flowInMemory() {
        let result = InProcess(["demo", "--json"])
        #expect(result.stdout == #"{"added":12,"alreadyThere":0}"# + "\n")
    }
}

@Suite("Shell quoting")
struct ShellQuotingTests {
    @Test("plain words stay as they are; anything else is single-quoted so a shell reads it back")
    func quoting() {
        #expect(ShellQuoting.quoted("pie") == "pie")
        #expect(ShellQuoting.quoted("2026-01-01T10:30:00Z") == "2026-01-01T10:30:00Z")
        #expect(ShellQuoting.quoted("/tmp/a b.db") == "'/tmp/a b.db'")
        #expect(ShellQuoting.quoted("o'brien") == #"'o'\''brien'"#)
        #expect(ShellQuoting.quoted("") == "''")
        #expect(ShellQuoting.quoted("$HOME;rm *") == "'$HOME;rm *'")
        #expect(ShellQuoting.quoted("é") == "'é'")
        #expect(ShellQuoting.command(["cart", "orders", "--sku", "a b"]) == "cart orders --sku 'a b'")
    }
}

@Suite("Output to a reader that went away, through the binary")
struct ClosedPipeTests {
    @Test("a pipe whose reader closed ends the output silently with status 1, not a SIGPIPE death")
    func closedPipe() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        close(ends[0])  // The reader is gone before cart writes a byte: no race.
        let writer = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
        let sandbox = try CartSandbox()
        let errors = sandbox.path("stderr")
        #expect(FileManager.default.createFile(atPath: errors, contents: nil))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try CartSandbox.binary())
        process.arguments = ["--help"]
        process.environment = ["HOME": sandbox.path("home"), "CART_DB": sandbox.database, "PATH": "/usr/bin:/bin"]
        process.standardOutput = writer
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit, "killed by signal \(process.terminationStatus)")
        #expect(process.terminationStatus == 1)
        #expect(try String(contentsOfFile: errors, encoding: .utf8) == "")
    }
}
