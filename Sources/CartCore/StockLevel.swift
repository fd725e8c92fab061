/// A product's stock as a change sets it: counted (`tracked`, units on hand) or not counted at
/// all (`untracked`, sold without limit).
///
/// ```swift
/// try service.updateProduct("pear", with: ProductUpdate(stock: .tracked(12)))
/// try service.updateProduct("pear", with: ProductUpdate(stock: .untracked))
/// ```
public enum StockLevel: Hashable, Sendable, CustomStringConvertible {
    /// Stock is not tracked: any quantity can be sold.
    case untracked
    /// This many units are in stock (0 or more).
    case tracked(Int)

    /// The level `Product.stock` stores: `nil` for untracked.
    public init(_ units: Int?) {
        self = units.map(StockLevel.tracked) ?? .untracked
    }

    /// The units in stock, as `Product.stock` holds them: `nil` when not tracked.
    public var units: Int? {
        switch self {
        case .untracked: nil
        case .tracked(let units): units
        }
    }

    /// `12 in stock` or `not tracked`.
    public var description: String {
        switch self {
        case .untracked: "not tracked"
        case .tracked(let units): "\(units) in stock"
        }
    }
}
