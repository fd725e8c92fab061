import CartCore
import CartTestSupport
import CartSQLite
import Foundation

/// A clock that stands still unless a test moves it.
let fixedClock: @Sendable () -> Date = { Date(timeIntervalSince1970: 1_800_000_000) }

extension CartService {
    /// Adds `count` active products `sku-0…` priced 1.00 each, with optional stock.
    func seedCatalog(count: Int, stock: Int? = nil) throws {
        let currency = try settings().currency
        try importProducts(
            (0..<count).map {
                Product(sku: "sku-\($0)", name: "Product \($0)", price: Money(minorUnits: 100, currency: currency), stock: stock)
            })
    }
}

/// A database file with `count` products `sku-0…` and one cart, `alice`, holding `sku-0` × 1.
func aliceFile(in directory: TemporaryDirectory, products count: Int = 1) throws -> (path: String, service: CartService) {
    let path = directory.path("cart.sqlite3")
    let service = CartService(repository: try SQLiteCartRepository(path: path), clock: fixedClock)
    try service.seedCatalog(count: count)
    try service.add("sku-0", to: "alice")
    return (path, service)
}

/// The bytes of a file, for byte-for-byte comparisons.
func contents(of path: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: path))
}

/// Runs a program to completion; returns its exit status, standard output and standard error.
func runProcess(_ executable: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let stdout = output.fileHandleForReading.readDataToEndOfFile()
    let stderr = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
}
