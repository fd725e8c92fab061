import CLibpq
import CLibpqLoader

/// One row of a `PostgresResult`. Each reader checks the column's type and throws, never
/// traps: a column that does not exist, of another type, NULL where a value is required, or
/// an integer out of range is a `PostgresError` of kind `.unexpectedResult`.
public struct PostgresRow {
    let result: PostgresResult
    /// The row's position in the result, from 0.
    public let index: Int

    /// Whether the value of `column` is NULL.
    ///
    /// - Throws: `PostgresError` when the column does not exist.
    public func isNull(_ column: Int) throws -> Bool {
        try checkColumn(column)
        return cart_PQgetisnull(result.handle, Int32(index), Int32(column)) == 1
    }

    /// The text of a `text`, `varchar`, `char(n)` or `name` column.
    ///
    /// - Throws: `PostgresError` when the column does not exist, has another type, or is NULL.
    public func string(_ column: Int) throws -> String {
        try required(optionalString(column), column)
    }

    /// The text of a `text`, `varchar`, `char(n)` or `name` column, or `nil` for NULL.
    ///
    /// - Throws: `PostgresError` when the column does not exist or has another type.
    public func optionalString(_ column: Int) throws -> String? {
        try bytes(column, of: .text).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The value of a `bigint`, `integer` or `smallint` column, or of a `numeric` one that
    /// holds a whole number (what `sum` of `bigint`s returns).
    ///
    /// - Throws: `PostgresError` when the column does not exist, has another type, is NULL,
    ///   or holds a number that is not a 64-bit integer.
    public func int64(_ column: Int) throws -> Int64 {
        try required(optionalInt64(column), column)
    }

    /// The value of an integer column (see `int64(_:)`), or `nil` for NULL.
    ///
    /// - Throws: `PostgresError` when the column does not exist, has another type, or holds
    ///   a number that is not a 64-bit integer.
    public func optionalInt64(_ column: Int) throws -> Int64? {
        guard let bytes = try bytes(column, of: .integer) else { return nil }
        guard let value = Self.parseInt64(bytes) else {
            throw unexpected("column \(describe(column)) holds \(String(decoding: bytes, as: UTF8.self)), which is not a 64-bit integer")
        }
        return value
    }

    /// The value of an integer column as an `Int` (see `int64(_:)`).
    ///
    /// - Throws: `PostgresError` as `int64(_:)` does, or when the value does not fit an `Int`.
    public func int(_ column: Int) throws -> Int {
        try required(optionalInt(column), column)
    }

    /// The value of an integer column as an `Int`, or `nil` for NULL.
    ///
    /// - Throws: `PostgresError` as `optionalInt64(_:)` does, or when the value does not fit
    ///   an `Int`.
    public func optionalInt(_ column: Int) throws -> Int? {
        guard let value = try optionalInt64(column) else { return nil }
        guard let int = Int(exactly: value) else { throw unexpected("column \(describe(column)) holds \(value), too large for an Int") }
        return int
    }

    /// The value of a `boolean` column.
    ///
    /// - Throws: `PostgresError` when the column does not exist, has another type, or is NULL.
    public func bool(_ column: Int) throws -> Bool {
        try required(optionalBool(column), column)
    }

    /// The value of a `boolean` column, or `nil` for NULL.
    ///
    /// - Throws: `PostgresError` when the column does not exist or has another type.
    public func optionalBool(_ column: Int) throws -> Bool? {
        guard let bytes = try bytes(column, of: .boolean) else { return nil }
        return bytes.first == UInt8(ascii: "t")
    }

    /// What a reader takes: the column types it reads.
    private enum Kind {
        case text, integer, boolean

        func accepts(_ type: Oid) -> Bool {
            switch (self, type) {
            case (.text, 25), (.text, 1043), (.text, 1042), (.text, 19): true
            case (.integer, 20), (.integer, 23), (.integer, 21), (.integer, 1700): true
            case (.boolean, 16): true
            default: false
            }
        }

        /// What the reader expected, for its error.
        var name: String {
            switch self {
            case .text: "text"
            case .integer: "an integer"
            case .boolean: "a boolean"
            }
        }
    }

    private static let typeNames: [Oid: String] = [
        16: "boolean", 17: "bytea", 19: "name", 20: "bigint", 21: "smallint", 23: "integer", 25: "text", 114: "json",
        700: "real", 701: "double precision", 1042: "character", 1043: "character varying", 1082: "date",
        1114: "timestamp", 1184: "timestamptz", 1700: "numeric", 2950: "uuid", 3802: "jsonb",
    ]

    /// The bytes of the value of `column` in text format, or `nil` for NULL, after checking
    /// that the column exists and has a type `kind` reads.
    private func bytes(_ column: Int, of kind: Kind) throws -> UnsafeBufferPointer<UInt8>? {
        try checkColumn(column)
        let type = cart_PQftype(result.handle, Int32(column))
        guard kind.accepts(type) else {
            let name = Self.typeNames[type] ?? "of type OID \(type)"
            throw unexpected("column \(describe(column)) is \(name), not \(kind.name)")
        }
        guard cart_PQgetisnull(result.handle, Int32(index), Int32(column)) == 0,
            let value = cart_PQgetvalue(result.handle, Int32(index), Int32(column))
        else { return nil }
        let count = Int(cart_PQgetlength(result.handle, Int32(index), Int32(column)))
        return UnsafeBufferPointer(start: UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self), count: count)
    }

    private func checkColumn(_ column: Int) throws {
        guard result.indices.contains(index) else {
            throw unexpected("row \(index) does not exist: the result has \(result.count) rows")
        }
        guard (0..<result.columnCount).contains(column) else {
            throw unexpected("column \(column) does not exist: the result has \(result.columnCount) columns")
        }
    }

    private func required<Value>(_ value: Value?, _ column: Int) throws -> Value {
        guard let value else { throw unexpected("column \(describe(column)) is NULL where a value is required") }
        return value
    }

    /// `2 (total)`: the column's position and name.
    private func describe(_ column: Int) -> String {
        "\(column) (\(result.columnName(column) ?? "?"))"
    }

    private func unexpected(_ message: String) -> PostgresError {
        PostgresError(kind: .unexpectedResult, message: message, sql: result.sql)
    }

    /// Decimal digits with an optional sign, without overflow; `nil` for anything else
    /// (a fraction, an exponent, `NaN`, a number beyond 64 bits).
    static func parseInt64(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        var digits = bytes[...]
        let negative = digits.first == UInt8(ascii: "-")
        if negative || digits.first == UInt8(ascii: "+") { digits = digits.dropFirst() }
        guard !digits.isEmpty else { return nil }
        var value: Int64 = 0
        for byte in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            let digit = Int64(byte - UInt8(ascii: "0"))
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            // Accumulates negatively: Int64.min has no positive counterpart.
            let (next, underflow) = shifted.subtractingReportingOverflow(digit)
            guard !overflow, !underflow else { return nil }
            value = next
        }
        if negative { return value }
        let (positive, overflow) = (0 as Int64).subtractingReportingOverflow(value)
        return overflow ? nil : positive
    }
}
