// libFuzzer entry point for Money parsing and formatting; built by scripts/fuzz.sh together
// with the CartCore sources. Any crash, trap or sanitizer report is a bug.
//
// Properties checked on every input: parsing never crashes, an accepted amount is
// non-negative, and formatting it then parsing the decimal text gives the same amount back.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMoneyParsing(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    for currency in [Currency.usd, .jpy, .kwd] {
        guard let money = try? Money(parsing: text, currency: currency) else { continue }
        precondition(money.minorUnits >= 0, "parsed a negative amount from \(text.debugDescription)")
        let again = try? Money(parsing: money.decimalString, currency: currency)
        precondition(again == money, "round trip changed \(text.debugDescription) to \(money.decimalString)")
        _ = money.formatted
        _ = try? money.multiplied(by: Int(size))
        _ = try? money.adding(money)
    }
    return 0
}
