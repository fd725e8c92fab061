/// A value read from the store that the service cannot work with: another client wrote it
/// (each such value passes the schema's own checks). Nothing was changed.
public struct StoredDataError: CategorizedError, Hashable, Sendable, CustomStringConvertible {
    /// What is out of range, in words, naming the row.
    public let message: String

    /// Creates an error.
    public init(_ message: String) {
        self.message = message
    }

    public var category: ErrorCategory { .damagedStore }

    public var description: String { "The store holds a value this version cannot use: \(message)." }

    /// `value + 1`, or this error naming `what` when `value` is the largest integer.
    static func successor(of value: Int, _ what: @autoclosure () -> String) throws(StoredDataError) -> Int {
        let (next, overflow) = value.addingReportingOverflow(1)
        guard !overflow else { throw StoredDataError("\(what()) is \(value), the largest integer") }
        return next
    }
}
