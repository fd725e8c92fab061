/// The ranges of the integers a backend stores that the service can work with. Another client
/// can store any integer the backend's own checks let through, or past them (SQLite with its
/// checks off, a PostgreSQL superuser dropping a CHECK constraint), and the service's
/// arithmetic relies on these ranges. So each backend checks every integer it reads back
/// (`StoredDataError.checked(_:in:_:)`) and refuses one outside its range with a
/// `StoredDataError` naming the row, and its `StoreMaintenance.check()` lists every such value
/// (`StoredColumnRange.all`).
public enum StoredRange {
    /// The units of a cart line or an order line: no line cap can ever be higher.
    public static let lineQuantity: ClosedRange<Int64> = 1...Int64(StoreSettings.maxLineQuantityRange.upperBound)
    /// Any integer: the range of a value the service checks itself (a cart line's quantity in a
    /// line's context, which setting or deleting the line replaces whatever it is).
    public static let anyInteger: ClosedRange<Int64> = Int64.min...Int64.max
    /// A product's price, and an order line's unit price, in minor units.
    public static let price: ClosedRange<Int64> = 0...Product.maximumPriceMinorUnits
    /// A product's tracked stock.
    public static let stock: ClosedRange<Int64> = 0...Int64.max
    /// A product's active flag, where a backend stores it as an integer: 1 for sale, 0 not.
    public static let activeFlag: ClosedRange<Int64> = 0...1
    /// A cart's version.
    public static let version: ClosedRange<Int64> = 1...Int64.max
    /// How many lines a cart's header counts.
    public static let lineCount: ClosedRange<Int64> = 0...Int64.max
    /// A line's position, and the position a cart's next new line takes.
    public static let position: ClosedRange<Int64> = 1...Int64.max
    /// An order's number.
    public static let orderNumber: ClosedRange<Int64> = 1...Int64.max
    /// The units of an order.
    public static let orderItems: ClosedRange<Int64> = 1...Int64.max
    /// What an order or an order line totals, in minor units.
    public static let amount: ClosedRange<Int64> = 0...Int64.max
    /// A stored instant, in milliseconds since the epoch (`UTCCalendar.millisecondRange`).
    public static let instant: ClosedRange<Int64> = UTCCalendar.millisecondRange
    /// Days since 1970-01-01 of those instants, at any UTC offset.
    public static let day: ClosedRange<Int64> =
        (instant.lowerBound / 86_400_000 - 1)...(instant.upperBound / 86_400_000 + 1)
    /// The digits of a currency's minor unit.
    public static let currencyExponent: ClosedRange<Int64> =
        Int64(Currency.minorUnitExponentRange.lowerBound)...Int64(Currency.minorUnitExponentRange.upperBound)
    /// The setting `StoreSettings.maxLineQuantity`.
    public static let maxLineQuantity: ClosedRange<Int64> =
        Int64(StoreSettings.maxLineQuantityRange.lowerBound)...Int64(StoreSettings.maxLineQuantityRange.upperBound)
    /// The setting `StoreSettings.maxLinesPerCart`.
    public static let maxLinesPerCart: ClosedRange<Int64> =
        Int64(StoreSettings.maxLinesPerCartRange.lowerBound)...Int64(StoreSettings.maxLinesPerCartRange.upperBound)

    /// How `value` falls outside `range`, to follow a value's name: `is 0, below 1`,
    /// `is 2000000, above 1000000`, `is 9223372036854775807, the largest integer`.
    public static func outside(_ value: Int64, _ range: ClosedRange<Int64>) -> String {
        if value < range.lowerBound { return "is \(value), below \(range.lowerBound)" }
        if value == Int64.max { return "is \(value), the largest integer" }
        if value > range.upperBound { return "is \(value), above \(range.upperBound)" }
        return "is \(value), more than this platform's integers hold"
    }
}
