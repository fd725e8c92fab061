import CLibpq
import CLibpqLoader

/// The rows a statement returned (none for most writes), read through `PostgresRow`.
///
/// ```swift
/// for row in try connection.execute("SELECT sku, quantity FROM cart_lines WHERE cart_id = $1", [.text(id)]) {
///     let sku = try row.string(0)
///     let quantity = try row.int64(1)
/// }
/// ```
public final class PostgresResult: RandomAccessCollection {
    let handle: OpaquePointer
    /// The SQL that produced the result, for error messages.
    public let sql: String
    /// How many rows the result has.
    private let rowCount: Int
    /// How many columns each row has.
    public let columnCount: Int

    init(handle: OpaquePointer, sql: String) {
        self.handle = handle
        self.sql = sql
        rowCount = Int(cart_PQntuples(handle))
        columnCount = Int(cart_PQnfields(handle))
    }

    deinit { cart_PQclear(handle) }

    public var startIndex: Int { 0 }
    public var endIndex: Int { rowCount }
    public subscript(position: Int) -> PostgresRow { PostgresRow(result: self, index: position) }

    /// The name of column `column`, or `nil` when there is no such column.
    public func columnName(_ column: Int) -> String? {
        guard let name = cart_PQfname(handle, Int32(clamping: column)) else { return nil }
        return String(cString: name)
    }

    /// How many rows an INSERT, UPDATE, DELETE, MERGE, SELECT or FETCH affected; 0 for
    /// other statements.
    public var affectedRows: Int {
        guard let text = cart_PQcmdTuples(handle) else { return 0 }
        return Int(String(cString: text)) ?? 0
    }

    /// The server's command tag, such as `INSERT 0 1` or `BEGIN`.
    public var commandTag: String {
        guard let tag = cart_PQcmdStatus(handle) else { return "" }
        return String(cString: tag)
    }
}
