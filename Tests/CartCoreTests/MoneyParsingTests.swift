import CartCore
import Testing

@Suite("Parsing money")
struct MoneyParsingTests {
    static let clf = try! Currency(code: "CLF")

    @Test(
        "decimal text parses to exact minor units",
        arguments: [
            ("12.99", Currency.usd, 1299), ("0.05", .usd, 5), ("12.9", .usd, 1290), ("12", .usd, 1200),
            ("0", .usd, 0), ("0.00", .usd, 0), ("007.10", .usd, 710), ("3.5", .eur, 350),
            ("500", .jpy, 500), ("0", .jpy, 0),
            ("12.990", .kwd, 12990), ("12.99", .kwd, 12990), ("0.001", .kwd, 1),
            ("1.2345", clf, 12345), ("0.0001", clf, 1), ("7", clf, 70000),
        ] as [(String, Currency, Int64)])
    func parses(_ text: String, _ currency: Currency, _ minorUnits: Int64) throws {
        #expect(try Money(parsing: text, currency: currency) == Money(minorUnits: minorUnits, currency: currency))
    }

    @Test(
        "the largest amount of each exponent parses exactly; one minor unit more is too large",
        arguments: [
            (Currency.jpy, "9223372036854775807", "9223372036854775808"),
            (.usd, "92233720368547758.07", "92233720368547758.08"),
            (.kwd, "9223372036854775.807", "9223372036854775.808"),
            (clf, "922337203685477.5807", "922337203685477.5808"),
        ])
    func int64Boundary(_ currency: Currency, _ largest: String, _ tooLarge: String) throws {
        #expect(try Money(parsing: largest, currency: currency).minorUnits == Int64.max)
        #expect(throws: CartError.invalidAmount(tooLarge, reason: "it is too large")) {
            try Money(parsing: tooLarge, currency: currency)
        }
    }

    @Test("more whole digits than fit are too large, not wrapped")
    func hugeWholePart() {
        for text in ["99999999999999999999", "92233720368547758.08", "100000000000000000"] {
            #expect(throws: CartError.invalidAmount(text, reason: "it is too large")) {
                try Money(parsing: text, currency: .usd)
            }
        }
    }

    @Test("more fraction digits than the currency has are refused")
    func tooManyDecimals() {
        #expect(throws: CartError.invalidAmount("12.999", reason: "USD has at most 2 decimal places")) {
            try Money(parsing: "12.999", currency: .usd)
        }
        #expect(throws: CartError.invalidAmount("12.9990", reason: "KWD has at most 3 decimal places")) {
            try Money(parsing: "12.9990", currency: .kwd)
        }
        #expect(throws: CartError.invalidAmount("500.0", reason: "JPY has no fractional digits")) {
            try Money(parsing: "500.0", currency: .jpy)
        }
        #expect(throws: CartError.invalidAmount("0.00001", reason: "CLF has at most 4 decimal places")) {
            try Money(parsing: "0.00001", currency: Self.clf)
        }
    }

    @Test(
        "anything but ASCII digits and one point is refused",
        arguments: ["1e3", "abc", "1,00", "NaN", "∞", " 1", "1 ", "+1", "１２", "٣", "0x10", "12.9O", "$12.99", "1_000"])
    func foreignCharacters(_ text: String) {
        #expect(throws: CartError.invalidAmount(text, reason: "use digits and at most one '.', such as 12.99")) {
            try Money(parsing: text, currency: .usd)
        }
    }

    @Test(
        "in a currency without a minor unit the example has no point",
        arguments: ["¥1200", "1,200", "1200 XOF", "1e3"])
    func foreignCharactersWithoutMinorUnit(_ text: String) throws {
        let xof = try Currency(code: "XOF")
        for currency in [Currency.jpy, xof] {
            #expect(throws: CartError.invalidAmount(text, reason: "use digits only, such as 1299")) {
                try Money(parsing: text, currency: currency)
            }
        }
    }

    @Test(
        "malformed amounts are refused with the reason",
        arguments: [
            ("", "it is empty"), ("-1", "amounts cannot be negative"), ("-0.50", "amounts cannot be negative"),
            (".5", "it needs digits before the decimal point"), (".", "it needs digits before the decimal point"),
            ("5.", "it needs digits after the decimal point"), ("1.2.3", "it has more than one decimal point"),
            (String(repeating: "0", count: 41), "it is too long"),
        ])
    func malformed(_ text: String, _ reason: String) {
        #expect(throws: CartError.invalidAmount(text, reason: reason)) { try Money(parsing: text, currency: .usd) }
    }

    @Test("forty leading zeros are still an amount")
    func longButValid() throws {
        #expect(try Money(parsing: String(repeating: "0", count: 37) + "1.5", currency: .usd).minorUnits == 150)
    }

    @Test("formatting then parsing gives the amount back for every known currency")
    func roundTrip() throws {
        for currency in Currency.known.values {
            for minorUnits: Int64 in [0, 1, 9, 10, 99, 100, 101, 12_345, 1_000_000, Int64.max - 1, Int64.max] {
                let money = Money(minorUnits: minorUnits, currency: currency)
                #expect(try Money(parsing: money.decimalString, currency: currency) == money, "\(currency)")
            }
        }
    }
}
