import CartCore

extension PostgresRow {
    /// The value of an integer column as an `Int`, if it lies in `range` (see `StoredRange`).
    ///
    /// - Throws: `StoredDataError` naming the value by `what` when it is NULL or outside
    ///   `range` (another client wrote it past the schema's checks): `the price of product
    ///   'apple' is -5, below 0`; `PostgresError` as `int64(_:)` does otherwise.
    func int(_ column: Int, in range: ClosedRange<Int64>, _ what: @autoclosure () -> String) throws -> Int {
        guard let value = try optionalInt64(column) else { throw StoredDataError("\(what()) is NULL, not an integer") }
        return try StoredDataError.checked(value, in: range, what())
    }

    /// `int(_:in:_:)`, or `nil` for NULL.
    func optionalInt(_ column: Int, in range: ClosedRange<Int64>, _ what: @autoclosure () -> String) throws -> Int? {
        try isNull(column) ? nil : try int(column, in: range, what())
    }
}
