import CSQLite
import CartCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A prepared statement, owned by one `Database` and reused across calls.
///
/// Values are always bound as parameters; text never becomes part of the SQL.
final class Statement {
    let handle: OpaquePointer
    let sql: String
    private unowned let database: Database
    /// One buffer per parameter holding the text last bound there, followed by a NUL. SQLite
    /// reads bound text in place from these (`SQLITE_STATIC`) instead of copying every value
    /// into an allocation of its own (`SQLITE_TRANSIENT`): each binding stays valid until that
    /// parameter is bound again, and the buffers live as long as the statement.
    private var textBuffers: [UnsafeMutableRawBufferPointer]

    init(handle: OpaquePointer, sql: String, database: Database) {
        self.handle = handle
        self.sql = sql
        self.database = database
        textBuffers = Array(repeating: UnsafeMutableRawBufferPointer(start: nil, count: 0), count: Int(sqlite3_bind_parameter_count(handle)))
    }

    deinit {
        sqlite3_finalize(handle)
        for buffer in textBuffers { buffer.deallocate() }
    }

    /// Clears earlier bindings and the statement's position so it can run again.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    func bind(_ value: Int64, at index: Int32) throws {
        try check(sqlite3_bind_int64(handle, index, value))
    }

    func bind(_ value: Int, at index: Int32) throws {
        try check(sqlite3_bind_int64(handle, index, Int64(value)))
    }

    func bind(_ value: Bool, at index: Int32) throws {
        try check(sqlite3_bind_int64(handle, index, value ? 1 : 0))
    }

    func bind(_ value: String, at index: Int32) throws {
        var value = value
        let code = value.withUTF8 { utf8 -> Int32 in
            let slot = Int(index) - 1
            // An index SQLite does not know: let it report the range error.
            guard textBuffers.indices.contains(slot) else {
                return sqlite3_bind_text(handle, index, "", 0, cart_sqlite3_transient())
            }
            if textBuffers[slot].count <= utf8.count || textBuffers[slot].baseAddress == nil {
                textBuffers[slot].deallocate()
                textBuffers[slot] = .allocate(byteCount: max(utf8.count + 1, 32), alignment: 1)
            }
            let buffer = textBuffers[slot]
            if let source = utf8.baseAddress { buffer.baseAddress!.copyMemory(from: source, byteCount: utf8.count) }
            buffer[utf8.count] = 0
            let text = buffer.baseAddress!.assumingMemoryBound(to: CChar.self)
            // Length -1 tells SQLite the text ends in a NUL. Text bound with its length is
            // copied (an allocation, a copy, a free) by every SQL function that reads it, such
            // as the length() of a CHECK. Text with a NUL inside keeps its length, so it is
            // stored whole.
            let length = strlen(text) == utf8.count ? -1 : Int32(utf8.count)
            // A nil destructor is SQLITE_STATIC: SQLite reads the buffer in place.
            return sqlite3_bind_text(handle, index, text, length, nil)
        }
        try check(code)
    }

    func bind(_ value: Int?, at index: Int32) throws {
        if let value { try bind(value, at: index) } else { try check(sqlite3_bind_null(handle, index)) }
    }

    func bind(_ value: String?, at index: Int32) throws {
        if let value { try bind(value, at: index) } else { try check(sqlite3_bind_null(handle, index)) }
    }

    func bind(_ value: Int64?, at index: Int32) throws {
        if let value { try bind(value, at: index) } else { try check(sqlite3_bind_null(handle, index)) }
    }

    /// Advances to the next row; `false` when the statement is done.
    func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw database.lastError(sql: sql)
        }
    }

    /// Runs a statement that returns no rows, and resets it: one that failed (a `BEGIN
    /// IMMEDIATE` refused as busy) would otherwise stay active, and the connection could commit
    /// nothing until it is reset.
    func run() throws {
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    func int64(at column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    /// The integer in `column`, which another client may have stored: it must lie in `range`
    /// (a `StoredRange`).
    ///
    /// - Throws: `StoredDataError` naming the value by `what` when it does not.
    func int(at column: Int32, in range: ClosedRange<Int64>, _ what: @autoclosure () -> String) throws -> Int {
        // The type is tested here first: it is nearly always an integer, and the call that
        // names another type is then skipped.
        if sqlite3_column_type(handle, column) != SQLITE_INTEGER, let other = nonInteger(at: column) {
            throw StoredDataError("\(what()) \(other)")
        }
        return try StoredDataError.checked(int64(at: column), in: range, what())
    }

    /// What `column` holds in words (`is the text 'lots', not an integer`), or `nil` when it
    /// holds an integer. A table that is not STRICT, or whose schema another client changed,
    /// may hold any type in any column; SQLite would read each as some integer.
    func nonInteger(at column: Int32) -> String? {
        let value: String
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return nil
        case SQLITE_NULL: value = "NULL"
        case SQLITE_FLOAT: value = "the real number \(sqlite3_column_double(handle, column))"
        case SQLITE_TEXT: value = "the text '\(DisplayText.clean(String(shownString(at: column).prefix(40))))'"
        default: value = "a blob of \(sqlite3_column_bytes(handle, column)) bytes"
        }
        return "is \(value), not an integer"
    }

    /// `int(at:in:_:)`, or `nil` for NULL.
    func optionalInt(at column: Int32, in range: ClosedRange<Int64>, _ what: @autoclosure () -> String) throws -> Int? {
        isNull(at: column) ? nil : try int(at: column, in: range, what())
    }

    /// The 0 or 1 in `column`.
    ///
    /// - Throws: `StoredDataError` naming the value by `what` for anything else.
    func bool(at column: Int32, _ what: @autoclosure () -> String) throws -> Bool {
        try int(at: column, in: 0...1, what()) == 1
    }

    func isNull(at column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    /// The text in `column`.
    ///
    /// - Throws: `StoredDataError` when it is not valid UTF-8, which SQLite stores as given
    ///   by another client: read with its bad bytes replaced, it would be changed without a
    ///   word wherever it is written again (an order line, a copy, an export).
    func string(at column: Int32) throws(StoredDataError) -> String {
        let bytes = self.bytes(at: column)
        // Most stored text is ASCII, valid as it is: only the rest goes through the standard
        // library's validation, which looks up generic metadata on every call.
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        guard let string = String(validating: bytes, as: UTF8.self) else {
            let name = sqlite3_column_name(handle, column).map { String(cString: $0) } ?? "\(column)"
            throw StoredDataError("a text in the column '\(name)' is not valid UTF-8")
        }
        return string
    }

    func optionalString(at column: Int32) throws(StoredDataError) -> String? {
        isNull(at: column) ? nil : try string(at: column)
    }

    /// The text in `column` with any bytes that are not UTF-8 shown as U+FFFD: for naming a
    /// stored value in a finding, never for a value the service works with.
    func shownString(at column: Int32) -> String {
        String(decoding: bytes(at: column), as: UTF8.self)
    }

    /// Whether the text in `column` is valid UTF-8 (NULL is).
    func isValidUTF8(at column: Int32) -> Bool {
        (try? string(at: column)) != nil
    }

    /// The bytes of the text in `column` (none for NULL), valid until the next step.
    private func bytes(at column: Int32) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: sqlite3_column_text(handle, column), count: Int(sqlite3_column_bytes(handle, column)))
    }

    private func check(_ code: Int32) throws {
        guard code == SQLITE_OK else { throw database.lastError(sql: sql) }
    }
}
