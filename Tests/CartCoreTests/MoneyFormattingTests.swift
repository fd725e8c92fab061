import CartCore
import Foundation
import Testing

@Suite("Formatting money, arithmetic and currencies")
struct MoneyFormattingTests {
    @Test(
        "amounts format with the currency's digits and symbol, whole units grouped by threes",
        arguments: [
            (Money(minorUnits: 1299, currency: .usd), "12.99", "$12.99"),
            (Money(minorUnits: 350, currency: .eur), "3.50", "€3.50"),
            (Money(minorUnits: 500, currency: .jpy), "500", "¥500"),
            (Money(minorUnits: 12990, currency: .kwd), "12.990", "12.990 KWD"),
            (Money(minorUnits: 5, currency: .usd), "0.05", "$0.05"),
            (Money(minorUnits: 0, currency: .usd), "0.00", "$0.00"),
            (Money(minorUnits: 0, currency: .jpy), "0", "¥0"),
            (Money(minorUnits: 1, currency: .kwd), "0.001", "0.001 KWD"),
            (Money(minorUnits: 1, currency: try! Currency(code: "CLF")), "0.0001", "0.0001 CLF"),
            (Money(minorUnits: -50, currency: .usd), "-0.50", "-$0.50"),
            (Money(minorUnits: -12990, currency: .kwd), "-12.990", "-12.990 KWD"),
            (Money(minorUnits: -7, currency: .jpy), "-7", "-¥7"),
            (Money(minorUnits: 99_999, currency: .usd), "999.99", "$999.99"),
            (Money(minorUnits: 100_000, currency: .usd), "1000.00", "$1,000.00"),
            (Money(minorUnits: 129_900, currency: .eur), "1299.00", "€1,299.00"),
            (Money(minorUnits: 12_500, currency: .jpy), "12500", "¥12,500"),
            (Money(minorUnits: 123_456_789, currency: .jpy), "123456789", "¥123,456,789"),
            (Money(minorUnits: -1_234_567, currency: .usd), "-12345.67", "-$12,345.67"),
            (Money(minorUnits: 1_234_567_890, currency: .kwd), "1234567.890", "1,234,567.890 KWD"),
            (Money(minorUnits: Int64.max, currency: .usd), "92233720368547758.07", "$92,233,720,368,547,758.07"),
            (Money(minorUnits: Int64.min, currency: .usd), "-92233720368547758.08", "-$92,233,720,368,547,758.08"),
            (Money(minorUnits: Int64.min, currency: .jpy), "-9223372036854775808", "-¥9,223,372,036,854,775,808"),
            (Money(minorUnits: Int64.min, currency: .kwd), "-9223372036854775.808", "-9,223,372,036,854,775.808 KWD"),
        ])
    func formats(_ money: Money, _ decimal: String, _ formatted: String) {
        #expect(money.decimalString == decimal)
        #expect(money.formatted == formatted)
        #expect(money.description == formatted)
    }

    @Test("any amount survives its JSON round trip, a negative one a caller made included",
        arguments: [Int64.max, 1_299, 0, -50, -1_299, -Int64.max, Int64.min])
    func jsonRoundTrip(_ minorUnits: Int64) throws {
        for currency in [Currency.usd, .jpy, .kwd] {
            let money = Money(minorUnits: minorUnits, currency: currency)
            let decoded = try JSONDecoder().decode(Money.self, from: try JSONEncoder().encode(money))
            #expect(decoded == money, "\(money.decimalString) \(currency.code)")
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Money.self, from: Data(#"{"amount":"--5.00","currency":"USD"}"#.utf8))
        }
    }

    @Test("adding amounts is exact and overflow is an error, never a wrap")
    func adding() throws {
        #expect(try usd(1299).adding(usd(1)) == usd(1300))
        #expect(try usd(Int64.max - 1).adding(usd(1)) == usd(Int64.max))
        #expect(throws: CartError.amountOverflow) { try usd(Int64.max).adding(usd(1)) }
        #expect(throws: CartError.amountOverflow) { try usd(Int64.min).adding(usd(-1)) }
        #expect(throws: CartError.currencyMismatch("USD", "EUR")) {
            try usd(1).adding(Money(minorUnits: 1, currency: .eur))
        }
    }

    @Test("multiplying by a quantity is exact and overflow is an error, never a wrap")
    func multiplying() throws {
        #expect(try usd(1299).multiplied(by: 3) == usd(3897))
        #expect(try usd(1299).multiplied(by: 0) == usd(0))
        #expect(try usd(Int64.max).multiplied(by: 1) == usd(Int64.max))
        #expect(try usd(Int64.max / 2).multiplied(by: 2) == usd(Int64.max - 1))
        #expect(throws: CartError.amountOverflow) { try usd(Int64.max / 2 + 1).multiplied(by: 2) }
        #expect(throws: CartError.amountOverflow) { try usd(2).multiplied(by: Int.max) }
        #expect(throws: CartError.amountOverflow) { try usd(Int64.min).multiplied(by: -1) }
    }

    @Test("amounts order by value within a currency")
    func ordering() {
        #expect(usd(99) < usd(100))
        #expect(usd(-1) < usd(0))
        #expect(!(usd(5) < usd(5)))
    }

    @Test("unequal amounts in currencies that share a code are ordered one way", arguments: [(1, 2), (2, 1), (1, 1)])
    func orderingSharedCode(_ plain: Int64, _ marked: Int64) throws {
        let plainCurrency = try Currency(code: "XTS", minorUnitExponent: 2)
        let withSymbol = try Currency(code: "XTS", minorUnitExponent: 2, symbol: "¤")
        let withDigits = try Currency(code: "XTS", minorUnitExponent: 3)
        for other in [withSymbol, withDigits] {
            let a = Money(minorUnits: plain, currency: plainCurrency)
            let b = Money(minorUnits: marked, currency: other)
            #expect(a != b)
            #expect((a < b) != (b < a))
        }
    }

    @Test(
        "currencies are found by ISO code in any case, with their exponent",
        arguments: [
            ("USD", 2), ("usd", 2), ("Eur", 2), ("JPY", 0), ("KWD", 3), ("BHD", 3), ("CLF", 4), ("GBP", 2),
            ("THB", 2), ("aed", 2), ("SAR", 2), ("XOF", 0), ("XAF", 0), ("UGX", 0), ("IDR", 2), ("ZWG", 2),
        ])
    func lookup(_ code: String, _ exponent: Int) throws {
        let currency = try Currency(code: code)
        #expect(currency.code == code.uppercased())
        #expect(currency.minorUnitExponent == exponent)
        #expect(Currency.known[currency.code] == currency)
    }

    @Test("a code names a currency in any case of its ASCII letters, a currency outside the table too, and nothing else")
    func naming() throws {
        for code in ["USD", "usd", "uSd"] { #expect(Currency.usd.isNamed(by: code), "\(code)") }
        for code in ["EUR", "uſd", " USD", "US", ""] { #expect(!Currency.usd.isNamed(by: code), "\(code)") }
        #expect(try Currency(code: "XTS", minorUnitExponent: 2).isNamed(by: "xts"))
    }

    @Test("the table holds ISO 4217's current currencies, and no code that names none")
    func table() throws {
        #expect(Currency.known.count == 164)
        // Metals, units of account, testing, no currency, and codes ISO has withdrawn.
        for code in ["XAU", "XAG", "XAD", "XDR", "XTS", "XXX", "HRK", "SLL", "ZWL", "CUC", "ANG", "BGN"] {
            #expect(Currency.known[code] == nil, "\(code)")
        }
        let baht = try Currency(code: "THB")
        #expect(Money(minorUnits: 123_456, currency: baht).formatted == "1,234.56 THB")
        #expect(Money(minorUnits: 2500, currency: try Currency(code: "XOF")).formatted == "2,500 XOF")
    }

    @Test("the built-in currencies are the table's", arguments: [Currency.usd, .eur, .jpy, .kwd])
    func builtIns(_ currency: Currency) throws {
        #expect(try Currency(code: currency.code) == currency)
    }

    @Test(
        "unknown codes are refused as given, non-ASCII letters that upper-case to ASCII ones included",
        arguments: ["XXX", "", "US", "USDD", "U$D", "ＵＳＤ", "uſd", "ınr"])
    func unknown(_ code: String) {
        #expect(throws: CartError.unknownCurrency(code)) { try Currency(code: code) }
    }

    @Test("a custom currency needs three capital letters and an exponent of 0 to 4")
    func custom() throws {
        let custom = try Currency(code: "XTS", minorUnitExponent: 4)
        #expect(Money(minorUnits: 12345, currency: custom).formatted == "1.2345 XTS")
        #expect(throws: CartError.unknownCurrency("xts")) { try Currency(code: "xts", minorUnitExponent: 2) }
        // Digits out of range are named as such, not as an unknown code.
        let digits = { (value: Int) in CartError.invalidSetting(name: "Minor-unit digits", value: value, range: 0...4) }
        #expect(throws: digits(5)) { try Currency(code: "XTS", minorUnitExponent: 5) }
        #expect(throws: digits(-1)) { try Currency(code: "XTS", minorUnitExponent: -1) }
        #expect(digits(9).description == "Minor-unit digits must be between 0 and 4; got 9.")
        // Two currencies of one code that differ are told apart in the error.
        let marked = try Currency(code: "XTS", minorUnitExponent: 2, symbol: "T")
        let plain = try Currency(code: "XTS", minorUnitExponent: 2)
        let mismatch = #expect(throws: CartError.self) {
            try Money(minorUnits: 1, currency: marked).adding(Money(minorUnits: 1, currency: plain))
        }
        #expect(
            mismatch?.description == "Cannot combine amounts in XTS (2 digits, symbol 'T') and XTS (2 digits, no symbol).")
        #expect(throws: CartError.unknownCurrency("ÀBC")) { try Currency(code: "ÀBC", minorUnitExponent: 2) }
    }
}

@Suite("Currencies made by code and exponent, and their JSON")
struct CustomCurrencyTests {
    @Test("a code of the table is the table's currency, and cannot take other digits or another symbol")
    func tableCurrency() throws {
        #expect(try Currency(code: "USD", minorUnitExponent: 2) == .usd)
        #expect(try Currency(code: "USD", minorUnitExponent: 2, symbol: "$") == .usd)
        #expect(try Currency(code: "KWD", minorUnitExponent: 3) == .kwd)
        #expect(throws: CartError.builtInCurrencyRedefined("USD")) { try Currency(code: "USD", minorUnitExponent: 3) }
        #expect(throws: CartError.builtInCurrencyRedefined("JPY")) { try Currency(code: "JPY", minorUnitExponent: 2) }
        #expect(throws: CartError.builtInCurrencyRedefined("USD")) {
            try Currency(code: "USD", minorUnitExponent: 2, symbol: "US$")
        }
        #expect(throws: CartError.builtInCurrencyRedefined("KWD")) {
            try Currency(code: "KWD", minorUnitExponent: 3, symbol: "KD")
        }
    }

    @Test("a currency outside the table decodes when the decoder is given it, and says how otherwise")
    func decoding() throws {
        let testing = try Currency(code: "XTS", minorUnitExponent: 2, symbol: "¤")
        let cart = try Cart(
            id: "alice", version: 1,
            lines: [CartLine(sku: "tea", name: "Tea", quantity: 2, unitPrice: Money(minorUnits: 4500, currency: testing))],
            currency: testing)
        let data = try CartJSON.encoder().encode(cart)
        #expect(try CartJSON.decoder(currencies: [testing]).decode(Cart.self, from: data) == cart)
        #expect {
            _ = try CartJSON.decoder().decode(Cart.self, from: data)
        } throws: { error in
            String(describing: error).contains("Unknown currency 'XTS'")
                && String(describing: error).contains("CartJSON.decoder(currencies:)")
        }
    }
}

/// An amount in US cents.
func usd(_ cents: Int64) -> Money {
    Money(minorUnits: cents, currency: .usd)
}
