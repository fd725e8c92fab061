import CartCore
import CartTestSupport
import Foundation

/// The data every workload shares: the catalog, cart IDs, and the add-to-cart call sequence,
/// as Swift values for the project and as C strings for the raw baseline.
final class BenchFixtures {
    let skus: [String]
    let names: [String]
    let prices: [Int64]
    let carts: [String]
    /// Stock of every catalog product: tracked, and large enough never to run out.
    static let stock = 1_000_000
    /// The add-to-cart calls: (cart index, SKU index), one unit each.
    let calls: [(cart: Int32, sku: Int32)]
    let cSKUs: [UnsafeMutablePointer<CChar>]
    let cNames: [UnsafeMutablePointer<CChar>]
    let cCarts: [UnsafeMutablePointer<CChar>]

    init(options: BenchOptions) {
        skus = (0..<options.skus).map { "sku-" + Self.padded($0, 4) }
        names = (0..<options.skus).map { "Product \($0)" }
        prices = (0..<options.skus).map { 100 + Int64($0) }
        carts = (0..<options.carts).map { "cart-" + Self.padded($0, 5) }
        // Every cart gets the same number of calls, in shuffled order, so no cart goes past the
        // default cap of 100 lines (which would make a call fail).
        var random = SplitMix64(seed: 42)
        var cartOrder = (0..<options.addCalls).map { Int32($0 % options.carts) }
        cartOrder.shuffle(using: &random)
        calls = cartOrder.map { ($0, Int32(random.below(options.skus))) }
        cSKUs = skus.map { strdup($0)! }
        cNames = names.map { strdup($0)! }
        cCarts = carts.map { strdup($0)! }
    }

    deinit {
        for pointer in cSKUs + cNames + cCarts { free(pointer) }
    }

    /// The catalog as products in the store currency (USD).
    var catalog: [Product] {
        skus.indices.map {
            Product(
                sku: skus[$0], name: names[$0], price: Money(minorUnits: prices[$0], currency: .usd), stock: Self.stock)
        }
    }

    static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

/// Fresh files for one round: removes a database and its WAL and shared-memory files.
enum BenchFiles {
    static func fresh(_ directory: String, _ name: String) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/" + name
        remove(path)
        return path
    }

    static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}
