import CartCore
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

/// The bytes of a file, for byte-for-byte comparisons.
func contents(of path: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: path))
}
