import CartCore

/// The catalog every seeded store starts with.
enum Catalog {
    /// $1.25, stock not tracked.
    static let apple = Product(sku: "apple", name: "Apple", price: usd(125))
    /// $0.99, 5 in stock.
    static let pear = Product(sku: "pear", name: "Pear", price: usd(99), stock: 5)
    /// $2.50, 10 in stock.
    static let plum = Product(sku: "plum", name: "Plum", price: usd(250), stock: 10)
    /// $3.00, not for sale.
    static let kiwi = Product(sku: "kiwi", name: "Kiwi", price: usd(300), isActive: false)

    static let products = [apple, pear, plum, kiwi]
}

/// An amount in US cents.
func usd(_ cents: Int64) -> Money {
    Money(minorUnits: cents, currency: .usd)
}
