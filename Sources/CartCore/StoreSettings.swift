/// The store-wide settings, kept in the database with the data they govern.
public struct StoreSettings: Hashable, Sendable, Codable {
    /// The currency of every price, cart and order in the store.
    public var currency: Currency
    /// The most units one cart line may hold.
    public var maxLineQuantity: Int
    /// The most distinct lines one cart may hold.
    public var maxLinesPerCart: Int

    /// Allowed values of `maxLineQuantity`.
    public static let maxLineQuantityRange = 1...1_000_000
    /// Allowed values of `maxLinesPerCart`.
    public static let maxLinesPerCartRange = 1...10_000

    /// The settings of a store created without options: USD, 99 per line, 100 lines.
    public static let defaults = StoreSettings(currency: .usd, maxLineQuantity: 99, maxLinesPerCart: 100)

    /// Creates settings; `CartService`, and a backend creating a store with them, check the
    /// ranges before storing them (`validated()`).
    public init(currency: Currency, maxLineQuantity: Int, maxLinesPerCart: Int) {
        self.currency = currency
        self.maxLineQuantity = maxLineQuantity
        self.maxLinesPerCart = maxLinesPerCart
    }

    /// These settings, when each is within its range.
    ///
    /// - Throws: `CartError.invalidSetting` for the first that is not.
    public func validated() throws(CartError) -> StoreSettings {
        try Self.check(maxLineQuantity: maxLineQuantity, maxLinesPerCart: maxLinesPerCart)
        return self
    }

    /// Refuses a value given outside its range.
    ///
    /// - Throws: `CartError.invalidSetting`.
    static func check(maxLineQuantity: Int?, maxLinesPerCart: Int?) throws(CartError) {
        if let maxLineQuantity, !maxLineQuantityRange.contains(maxLineQuantity) {
            throw .invalidSetting(name: "Maximum line quantity", value: maxLineQuantity, range: maxLineQuantityRange)
        }
        if let maxLinesPerCart, !maxLinesPerCartRange.contains(maxLinesPerCart) {
            throw .invalidSetting(name: "Maximum lines per cart", value: maxLinesPerCart, range: maxLinesPerCartRange)
        }
    }
}
