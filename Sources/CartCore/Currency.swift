import Synchronization

/// An ISO 4217 currency: its code and how many digits its minor unit has.
///
/// The store has exactly one currency, chosen when its database is created.
///
/// A currency is a plain value with no references: the code's three letters are packed into an
/// integer and the symbol is an index into a table of symbols. Every `Money`, `Product` and
/// `StoreSettings` holds one, so copying them retains and releases nothing.
public struct Currency: Hashable, Sendable, CustomStringConvertible {
    /// The code's ASCII letters, the first in the lowest byte.
    private let packedCode: UInt32
    /// How many decimal digits the minor unit has: 2 for USD (cents), 0 for JPY, 3 for KWD.
    public let minorUnitExponent: Int
    /// 0 for no symbol; otherwise the symbol's position in `Currency.symbols`, plus one.
    private let symbolNumber: UInt32

    /// Creates a currency that may not be in the built-in table. A code of the table is the
    /// table's currency, symbol included, so `Currency(code: "USD", minorUnitExponent: 2) == .usd`;
    /// it cannot take other digits or another symbol, because stores keep a built-in currency
    /// by its code and read it back as the table's.
    ///
    /// - Throws: `CartError.unknownCurrency` if the code is not three ASCII capital letters;
    ///   `CartError.invalidSetting` for an exponent outside `minorUnitExponentRange` (0...4);
    ///   `CartError.invalidCurrencySymbol` for a symbol that is empty, longer than 8
    ///   characters, or holds a control, separator or bidirectional override character;
    ///   `CartError.builtInCurrencyRedefined` for a code of the table with other digits or
    ///   another symbol than the table's.
    public init(code: String, minorUnitExponent: Int, symbol: String? = nil) throws(CartError) {
        guard code.utf8.count == 3, code.utf8.allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else {
            throw .unknownCurrency(code)
        }
        guard Self.minorUnitExponentRange.contains(minorUnitExponent) else {
            throw .invalidSetting(name: "Minor-unit digits", value: minorUnitExponent, range: Self.minorUnitExponentRange)
        }
        if let symbol, !Currency.isUsableSymbol(symbol) { throw .invalidCurrencySymbol(symbol) }
        if let known = Currency.known[code] {
            guard known.minorUnitExponent == minorUnitExponent, symbol == nil || symbol == known.symbol else {
                throw .builtInCurrencyRedefined(code)
            }
            self = known
            return
        }
        self.init(known: code, minorUnitExponent, symbol)
    }

    /// The error for amounts in `a` and `b`, two currencies that differ: named by their codes,
    /// or, when they share a code, each with its digits and symbol, which tell them apart.
    static func mismatch(_ a: Currency, _ b: Currency) -> CartError {
        guard a.code == b.code else { return .currencyMismatch(a.code, b.code) }
        func name(_ currency: Currency) -> String {
            let symbol = currency.symbol.map { "symbol '\(DisplayText.clean($0))'" } ?? "no symbol"
            return "\(currency.code) (\(currency.minorUnitExponent) digits, \(symbol))"
        }
        return .currencyMismatch(name(a), name(b))
    }

    /// The minor-unit digits a currency may have.
    public static let minorUnitExponentRange = 0...4

    /// `code` must be three ASCII capital letters.
    private init(known code: String, _ exponent: Int, _ symbol: String?) {
        packedCode = code.utf8.reversed().reduce(0) { $0 << 8 | UInt32($1) }
        minorUnitExponent = exponent
        symbolNumber = symbol.map(Currency.number(ofSymbol:)) ?? 0
    }

    /// Whether `symbol` may be written before amounts: 1 to 8 characters, none of them a
    /// control, separator or bidirectional override character, which a terminal would act on.
    public static func isUsableSymbol(_ symbol: String) -> Bool {
        !symbol.isEmpty && symbol.count <= 8 && DisplayText.escaped(symbol) == symbol
    }

    /// Looks a currency up by its ISO 4217 code, in any case of the ASCII letters (`usd`, `Eur`).
    ///
    /// - Throws: `CartError.unknownCurrency` if the code is not in the built-in table.
    public init(code: String) throws(CartError) {
        guard let known = Currency.known[Currency.upperCased(code)] else { throw .unknownCurrency(code) }
        self = known
    }

    /// Whether `code` names this currency: its code in any case of the ASCII letters (`usd`,
    /// `Usd` name USD), as `init(code:)` reads a code. Every front end that is given a currency
    /// beside an amount (a product body, an import file) holds it to the store's with this.
    public func isNamed(by code: String) -> Bool {
        Currency.upperCased(code) == self.code
    }

    /// `code` with its ASCII small letters made capitals. Only ASCII letters are folded:
    /// Unicode's upper-casing maps other letters to ASCII ones (`ſ` to `S`, `ı` to `I`), so
    /// `uſd` would otherwise name USD.
    private static func upperCased(_ code: String) -> String {
        String(decoding: code.utf8.map { (0x61...0x7A).contains($0) ? $0 - 0x20 : $0 }, as: UTF8.self)
    }

    /// The three-letter ISO 4217 code, such as `USD`.
    public var code: String {
        String(unsafeUninitializedCapacity: 3) { buffer in
            for index in 0..<3 { buffer[index] = UInt8(truncatingIfNeeded: packedCode >> (8 * UInt32(index))) }
            return 3
        }
    }

    /// The symbol written before amounts (`$12.99`), or `nil` where the code is written after
    /// (`12.990 KWD`).
    public var symbol: String? {
        guard symbolNumber > 0 else { return nil }
        return Currency.symbols.withLock { $0[Int(symbolNumber) - 1] }
    }

    /// Every symbol a currency has been created with, each once, so that equal currencies have
    /// equal numbers. It only grows, by the few distinct symbols a process uses.
    private static let symbols = Mutex<[String]>([])

    private static func number(ofSymbol symbol: String) -> UInt32 {
        symbols.withLock { symbols in
            if let index = symbols.firstIndex(of: symbol) { return UInt32(index + 1) }
            symbols.append(symbol)
            return UInt32(symbols.count)
        }
    }

    public var description: String { code }

    /// US dollar, the default store currency.
    public static let usd = Currency(known: "USD", 2, "$")
    /// Euro.
    public static let eur = Currency(known: "EUR", 2, "€")
    /// Japanese yen, which has no minor unit.
    public static let jpy = Currency(known: "JPY", 0, "¥")
    /// Kuwaiti dinar, which has three minor-unit digits and no symbol here.
    public static let kwd = Currency(known: "KWD", 3, nil)

    /// The currencies this build knows by code: ISO 4217's list of current currencies as of
    /// 2026-01-01, funds included, less the codes that name no currency (metals, units of
    /// account, special drawing rights, testing, XXX), with the digits ISO gives each. Six have a symbol written before amounts; the
    /// others are written with their code after (`12.99 CHF`), which no reader can mistake.
    public static let known: [String: Currency] = {
        let symbols = ["USD": "$", "EUR": "€", "JPY": "¥", "GBP": "£", "INR": "₹", "KRW": "₩"]
        let digits: [Int: [String]] = [
            0: [
                "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND", "VUV",
                "XAF", "XOF", "XPF",
            ],
            2: [
                "AED", "AFN", "ALL", "AMD", "AOA", "ARS", "AUD", "AWG", "AZN", "BAM", "BBD", "BDT", "BMD",
                "BND", "BOB", "BOV", "BRL", "BSD", "BTN", "BWP", "BYN", "BZD", "CAD", "CDF", "CHE", "CHF", "CHW",
                "CNY", "COP", "COU", "CRC", "CUP", "CVE", "CZK", "DKK", "DOP", "DZD", "EGP", "ERN", "ETB", "EUR",
                "FJD", "FKP", "GBP", "GEL", "GHS", "GIP", "GMD", "GTQ", "GYD", "HKD", "HNL", "HTG", "HUF", "IDR",
                "ILS", "INR", "IRR", "JMD", "KES", "KGS", "KHR", "KPW", "KYD", "KZT", "LAK", "LBP", "LKR", "LRD",
                "LSL", "MAD", "MDL", "MGA", "MKD", "MMK", "MNT", "MOP", "MRU", "MUR", "MVR", "MWK", "MXN", "MXV",
                "MYR", "MZN", "NAD", "NGN", "NIO", "NOK", "NPR", "NZD", "PAB", "PEN", "PGK", "PHP", "PKR", "PLN",
                "QAR", "RON", "RSD", "RUB", "SAR", "SBD", "SCR", "SDG", "SEK", "SGD", "SHP", "SLE", "SOS", "SRD",
                "SSP", "STN", "SVC", "SYP", "SZL", "THB", "TJS", "TMT", "TOP", "TRY", "TTD", "TWD", "TZS", "UAH",
                "USD", "USN", "UYU", "UZS", "VED", "VES", "WST", "XCD", "XCG", "YER", "ZAR", "ZMW", "ZWG",
            ],
            3: ["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"],
            4: ["CLF", "UYW"],
        ]
        var all: [String: Currency] = [:]
        for (exponent, codes) in digits {
            for code in codes { all[code] = Currency(known: code, exponent, symbols[code]) }
        }
        return all
    }()
}

extension Currency {
    /// The store currency as a backend reads it back from its columns: a code this build knows
    /// is the table's currency, whatever symbol is stored beside it; any other is taken with the
    /// stored digits and symbol. A stored code is never looked up loosely (no case folding).
    ///
    /// - Throws: `StoredDataError` for a code that is not three capital letters A to Z,
    ///   minor-unit digits outside 0 to 4 or, for a code this build knows, other than its own
    ///   (the stored amounts would change meaning), or a symbol
    ///   `init(code:minorUnitExponent:symbol:)` refuses (`storedProblem(code:minorUnitExponent:symbol:)`):
    ///   another client wrote them.
    public init(storedCode code: String, minorUnitExponent exponent: Int64, symbol: String?) throws(StoredDataError) {
        guard StoredRange.currencyExponent.contains(exponent) else {
            throw StoredDataError("the currency's minor-unit digits \(StoredRange.outside(exponent, StoredRange.currencyExponent))")
        }
        if let known = Currency.known[code] {
            if let problem = known.storedDigitsProblem(exponent) { throw problem }
            self = known
            return
        }
        if let problem = Self.storedProblem(code: code, minorUnitExponent: exponent, symbol: symbol) { throw problem }
        guard let stored = try? Currency(code: code, minorUnitExponent: Int(exponent), symbol: symbol?.isEmpty == true ? nil : symbol)
        else { throw StoredDataError("the store currency '\(DisplayText.clean(code))' is not three capital letters A to Z") }
        self = stored
    }

    /// The error for a stored currency that `init(storedCode:minorUnitExponent:symbol:)`
    /// refuses although its code is three capital letters and its digits 0 to 4: a code this
    /// build knows with other digits, or a symbol `init(code:minorUnitExponent:symbol:)`
    /// refuses; `nil` otherwise. An empty symbol reads as none, and a code this build knows
    /// uses its own.
    public static func storedProblem(code: String, minorUnitExponent exponent: Int64, symbol: String?) -> StoredDataError? {
        if let known = known[code] { return known.storedDigitsProblem(exponent) }
        guard let symbol, !symbol.isEmpty, !isUsableSymbol(symbol) else { return nil }
        return .unusableCurrencySymbol(symbol)
    }

    /// The error for this built-in currency stored with `exponent` minor-unit digits, other
    /// than its own; `nil` for its own.
    private func storedDigitsProblem(_ exponent: Int64) -> StoredDataError? {
        guard Int64(minorUnitExponent) != exponent else { return nil }
        return StoredDataError("the store currency \(code) is stored with \(exponent) minor-unit digits; it has \(minorUnitExponent)")
    }
}

extension StoredDataError {
    /// A stored currency symbol that `Currency.isUsableSymbol(_:)` refuses.
    public static func unusableCurrencySymbol(_ symbol: String) -> StoredDataError {
        StoredDataError("the currency symbol '\(DisplayText.clean(symbol))' is not 1 to 8 printable characters")
    }
}
