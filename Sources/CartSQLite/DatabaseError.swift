public import CartCore
import CSQLite

/// An error SQLite reported: its result code, its message, and the SQL that was running.
///
/// Its description says what happened in words first (`explanation`), then SQLite's detail
/// the way GRDB writes it: `the disk is full (SQLite error 13: database or disk is full - while
/// executing COMMIT)`. SQLite's generic error, whose message already says what happened, is
/// the detail alone: `SQLite error 1: no such table: carts - while executing …`.
public struct DatabaseError: CategorizedError, CustomStringConvertible, Sendable {
    /// The primary result code, such as `SQLITE_BUSY` (5) or `SQLITE_CONSTRAINT` (19).
    public var resultCode: Int32 { extendedResultCode & 0xFF }
    /// The extended result code, such as `SQLITE_CONSTRAINT_CHECK` (275).
    public let extendedResultCode: Int32
    /// SQLite's own message.
    public let message: String
    /// The SQL being prepared or run, if any.
    public let sql: String?
    /// The operating system's error number of the call that failed (`ENOSPC`), for an I/O
    /// error; 0 when there is none.
    public let systemErrno: Int32
    /// The words for an error this library raises itself, in place of the result code's.
    let ownExplanation: String?

    /// Creates an error from a result code and message, and for an I/O error the operating
    /// system's error number.
    public init(extendedResultCode: Int32, message: String, sql: String? = nil, systemErrno: Int32 = 0) {
        self.init(extendedResultCode: extendedResultCode, message: message, sql: sql, systemErrno: systemErrno, explanation: nil)
    }

    /// Creates an error this library raises itself, which says what happened in `explanation`.
    init(extendedResultCode: Int32, message: String, sql: String? = nil, systemErrno: Int32 = 0, explanation: String?) {
        self.extendedResultCode = extendedResultCode
        self.message = message
        self.sql = sql
        self.systemErrno = systemErrno
        ownExplanation = explanation
    }

    /// The error SQLite recorded for the last failed call on `handle`.
    static func last(of handle: OpaquePointer, code: Int32? = nil, sql: String? = nil) -> DatabaseError {
        DatabaseError(
            extendedResultCode: code ?? sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)),
            sql: sql, systemErrno: sqlite3_system_errno(handle))
    }

    /// A write this library refuses before SQLite is asked, because the connection is
    /// read-only: `isReadOnly`, with `reason` as its explanation.
    static func readOnly(reason: String?) -> DatabaseError {
        DatabaseError(
            extendedResultCode: SQLITE_READONLY | 6 << 8, message: "attempt to write a readonly database", explanation: reason)
    }

    /// The file a connection opened was deleted or moved away, and nothing is at its path now:
    /// SQLite's code for a file moved while open, which no longer reads or writes what other
    /// processes see.
    static let fileGone = DatabaseError(
        extendedResultCode: SQLITE_READONLY | 4 << 8, message: "the database file was moved or deleted while open",
        explanation: "the file was deleted or moved away while it was open, and nothing is at its path now")

    /// The database stayed locked by another connection past the busy timeout.
    public var isBusy: Bool { resultCode == SQLITE_BUSY || resultCode == SQLITE_LOCKED }
    /// This process may read the database but not write it: the file, its directory or the
    /// files beside it cannot be written. Not the read-only codes that stop reads too (a hot
    /// journal or a write-ahead log only a writer can recover, a file moved while open).
    public var isReadOnly: Bool {
        extendedResultCode == SQLITE_READONLY || extendedResultCode == SQLITE_READONLY | 6 << 8
    }
    /// The file is not a SQLite database (or is damaged beyond reading).
    public var isNotADatabase: Bool { resultCode == SQLITE_NOTADB || resultCode == SQLITE_CORRUPT }
    /// The file could not be opened: a missing directory, a directory given as the file, no
    /// permission.
    public var isCannotOpen: Bool { resultCode == SQLITE_CANTOPEN }
    /// A constraint of the schema refused the write.
    public var isConstraintViolation: Bool { resultCode == SQLITE_CONSTRAINT }

    /// Busy or locked: `unavailable`, worth retrying; read-only; not a database or corrupt:
    /// `damagedStore`; anything else (a full disk, an I/O error, a file that cannot be opened,
    /// a hot journal this process cannot roll back, a constraint another client's data
    /// breaks): `storageFailure`.
    public var category: ErrorCategory {
        if isBusy { return .unavailable }
        if isReadOnly { return .readOnly }
        if isNotADatabase { return .damagedStore }
        return .storageFailure
    }

    public var description: String {
        var detail = "SQLite error \(resultCode): \(message)"
        if let sql { detail += " - while executing \(sql.split(whereSeparator: \.isNewline).joined(separator: " "))" }
        guard let explanation else { return detail }
        return "\(explanation) (\(detail))"
    }
}
