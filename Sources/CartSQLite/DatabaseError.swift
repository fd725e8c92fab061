public import CartCore
import CSQLite

/// An error SQLite reported: its result code, its message, and the SQL that was running.
///
/// Its description reads like GRDB's:
/// `SQLite error 19: CHECK constraint failed: quantity > 0 - while executing INSERT INTO …`.
public struct DatabaseError: CategorizedError, CustomStringConvertible, Sendable {
    /// The primary result code, such as `SQLITE_BUSY` (5) or `SQLITE_CONSTRAINT` (19).
    public var resultCode: Int32 { extendedResultCode & 0xFF }
    /// The extended result code, such as `SQLITE_CONSTRAINT_CHECK` (275).
    public let extendedResultCode: Int32
    /// SQLite's own message.
    public let message: String
    /// The SQL being prepared or run, if any.
    public let sql: String?

    /// Creates an error from a result code and message.
    public init(extendedResultCode: Int32, message: String, sql: String? = nil) {
        self.extendedResultCode = extendedResultCode
        self.message = message
        self.sql = sql
    }

    /// The database stayed locked by another connection past the busy timeout.
    public var isBusy: Bool { resultCode == SQLITE_BUSY || resultCode == SQLITE_LOCKED }
    /// The database or its directory cannot be written.
    public var isReadOnly: Bool { resultCode == SQLITE_READONLY }
    /// The file is not a SQLite database (or is damaged beyond reading).
    public var isNotADatabase: Bool { resultCode == SQLITE_NOTADB || resultCode == SQLITE_CORRUPT }
    /// The file could not be opened: a missing directory, a directory given as the file, no
    /// permission.
    public var isCannotOpen: Bool { resultCode == SQLITE_CANTOPEN }
    /// A constraint of the schema refused the write.
    public var isConstraintViolation: Bool { resultCode == SQLITE_CONSTRAINT }

    /// Busy or locked: `unavailable`, worth retrying; read-only; not a database or corrupt:
    /// `damagedStore`; anything else (a full disk, an I/O error, a file that cannot be opened,
    /// a constraint another client's data breaks): `storageFailure`.
    public var category: ErrorCategory {
        if isBusy { return .unavailable }
        if isReadOnly { return .readOnly }
        if isNotADatabase { return .damagedStore }
        return .storageFailure
    }

    public var description: String {
        var text = "SQLite error \(resultCode): \(message)"
        if let sql { text += " - while executing \(sql.split(whereSeparator: \.isNewline).joined(separator: " "))" }
        return text
    }
}
