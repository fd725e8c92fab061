import CartCore
import Testing

@Suite("CSV fields as both front ends quote them")
struct OrderCSVTests {
    @Test(
        "a field is quoted only when it must be, its quotes doubled",
        arguments: [
            ("plain", "plain"), ("a,b", "\"a,b\""), ("say \"hi\"", "\"say \"\"hi\"\"\""), ("line\nbreak", "\"line\nbreak\""),
            ("cr\r", "\"cr\r\""), (" lead", "\" lead\""), ("trail ", "\"trail \""), ("", ""), ("\"\u{301}", "\"\"\"\u{301}\""),
        ])
    func field(text: String, written: String) {
        #expect(CSVWriter.field(text) == written)
    }

    @Test("a row joins its fields with commas and ends in LF")
    func row() {
        #expect(CSVWriter.row(["1", "a,b", "c"]) == "1,\"a,b\",c\n")
    }
}
