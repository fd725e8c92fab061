/// An order's number: sequential and gapless within a store, starting at 1.
public struct OrderNumber: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible,
    ExpressibleByIntegerLiteral
{
    /// The number itself.
    public let rawValue: Int64

    /// Wraps a number.
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// Wraps a literal number.
    public init(integerLiteral value: Int64) { self.rawValue = value }

    public static func < (lhs: OrderNumber, rhs: OrderNumber) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { String(rawValue) }
}
