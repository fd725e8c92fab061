// libFuzzer entry point for the CLI's import files; built by scripts/fuzz.sh against CartCLI
// compiled with -enable-testing. Any crash, trap or sanitizer report is a bug.
//
// Properties checked on every input: the CSV reader and the product-file reader (CSV and
// JSON) never crash; every record the CSV reader accepts, written back with CSVWriter, reads
// back as the same fields.

@testable import CartCLI
import CartCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSVReading(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let records = try? CSVReader(bytes).records() {
        // A header line first, so a field that starts the file is not taken for a byte order mark.
        let written = "header\n" + records.map { CSVWriter.row($0.fields) }.joined()
        let again = try? CSVReader(Array(written.utf8)).records().dropFirst().map(\.fields)
        precondition(again == records.map(\.fields), "CSV round trip changed \(records.map(\.fields))")
    }
    for currency in [Currency.usd, .jpy] {
        _ = try? ProductFileReader(name: "fuzz", currency: currency).read(bytes)
    }
    return 0
}
