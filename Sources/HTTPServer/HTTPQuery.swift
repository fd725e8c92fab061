/// The decoded parameters of a request's query string, in the order sent.
///
/// `a=1&b=x+y&a=2` holds `("a", "1")`, `("b", "x y")` and `("a", "2")`: a repeated name is
/// kept every time, `+` stands for a space as in HTML forms, a name without `=` has the
/// empty value, and empty pairs (`&&`) are skipped.
public struct HTTPQuery: Sendable, Equatable {
    /// The parameters in order.
    public let items: [(name: String, value: String)]

    /// Makes a query of the given parameters.
    public init(_ items: [(name: String, value: String)] = []) {
        self.items = items
    }

    /// The value of the first parameter with this name (compared exactly), if any.
    public func value(_ name: String) -> String? {
        items.first { $0.name == name }?.value
    }

    /// The values of every parameter with this name, in order.
    public func values(_ name: String) -> [String] {
        items.filter { $0.name == name }.map(\.value)
    }

    /// Queries are equal when they hold the same parameters in the same order.
    public static func == (lhs: HTTPQuery, rhs: HTTPQuery) -> Bool {
        lhs.items.count == rhs.items.count
            && zip(lhs.items, rhs.items).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }
}
