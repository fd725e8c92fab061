import CartCore
import Testing

@Suite("ProductQuery's text search")
struct ProductQueryTests {
    /// The definition the search keeps: the SKU or the name, lowercased, contains the text
    /// lowercased.
    func oracle(_ product: Product, _ text: String) -> Bool {
        let needle = text.lowercased()
        return product.sku.lowercased().contains(needle) || product.name.lowercased().contains(needle)
    }

    @Test("finds what lowercasing both sides finds, for ASCII, other scripts and case mappings that change length")
    func matchesLowercasing() {
        let names = [
            "Apple", "GREEN APPLE", "apple pie", "Grüne Birne", "İSTANBUL Çay", "KELVIN K", "Straße", "ΣΊΣΥΦΟΣ",
            "a\r\nb", "tab\there", "x", "", "Ünïcödé ÀPPLE", "DŽungla",
        ]
        let texts = [
            "apple", "APPLE", "pLe P", "e", "grüne", "GRÜNE", "i̇stanbul", "istanbul", "İ", "k", "K", "ss", "STRASSE",
            "straße", "σίσυφος", "\r", "\n", "b", "\t", "x", "xx", "ǆ", "Ǆ", "dž", " ", "-",
        ]
        for name in names {
            let product = Product(sku: "sku-\(name.utf8.count)", name: name, price: Money(minorUnits: 1, currency: .usd))
            for text in texts {
                let query = ProductQuery(includeInactive: true, text: text)
                #expect(query.includes(product) == oracle(product, text), "\(name.debugDescription) ~ \(text.debugDescription)")
            }
        }
    }
}
