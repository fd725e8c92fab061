import CSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One SQLite connection with its prepared-statement cache. Not thread-safe: its owner
/// (`SQLiteCartRepository`) serializes access.
final class Database {
    /// How a transaction takes its locks.
    enum TransactionKind {
        /// Takes the write lock at `BEGIN`, waiting up to the busy timeout. Every write unit
        /// uses it: a deferred transaction that later upgrades to a write gets `SQLITE_BUSY`
        /// at once, without waiting, since SQLite skips the busy handler where waiting could
        /// deadlock.
        case immediate
        /// Takes locks as statements need them; used for reads.
        case deferred
    }

    private(set) var handle: OpaquePointer
    let path: String
    /// How this connection reads and writes the file (see `Access`).
    private(set) var access: Access
    /// How long a unit waits, in all, for locks that other connections hold.
    let busyTimeout: Duration
    /// When the running unit stops waiting for locks and fails with `SQLITE_BUSY`.
    private(set) var lockDeadline: ContinuousClock.Instant
    /// Whether no unit has begun since the connection opened.
    private var opening = true
    /// Whether the busy handler has waited since the connection opened.
    private var waited = false
    /// How many times the connection was opened again (`reopen()`).
    private(set) var generation: UInt32 = 0
    /// The pragmas run on every connection this object opens (`configure(_:)`).
    private var setup: [String] = []
    /// Statements of dynamic SQL (history filters), by text.
    private var statements: [String: Statement] = [:]
    /// Statements of `CachedSQL`, by slot.
    private var slots: [Statement?] = []
    /// Whether this connection's commits leave checkpoints to its owner (`recordLogSize()`).
    private var recordsLogSize = false
    /// The write-ahead log's size in pages after this connection's last commit, once
    /// `recordLogSize()` was called.
    private(set) var logPages: Int32 = 0

    /// Opens the database file at `path` (creating it when `creating`), or a private in-memory
    /// database for `":memory:"`. A file this process cannot write is opened read-only (see
    /// `Access`).
    ///
    /// Every lock the opening waits for (its reads of the schema, the switch to WAL, the
    /// migrations), and the first unit's too, counts against one deadline, `busyTimeout` from
    /// now: a command waits one busy timeout in all (see `beginUnit()`).
    init(path: String, busyTimeout: Duration, creating: Bool = true) throws {
        (handle, access) = try Self.connect(path, creating: creating)
        self.path = path
        self.busyTimeout = busyTimeout
        lockDeadline = .now + busyTimeout
        configureHandle()
    }

    /// Runs `sql`, pragmas that set the connection up, now and on every connection `reopen()`
    /// opens (once, however often it is called).
    func configure(_ sql: String) throws {
        try execute(sql)
        if !setup.contains(sql) { setup.append(sql) }
    }

    /// Closes the connection and opens the file again, deciding its access afresh: the files
    /// beside it (the write-ahead log, its `-shm`) may have appeared or gone, and the file may
    /// be another one now. It never creates the file: one that is gone fails to open
    /// (`SQLITE_CANTOPEN`). Call between units only; the lock deadline stays. When it throws,
    /// the connection stays as it was.
    func reopen() throws {
        let (newHandle, newAccess) = try Self.connect(path, creating: false)
        for sql in setup where sqlite3_exec(newHandle, sql, nil, nil, nil) != SQLITE_OK {
            let error = DatabaseError.last(of: newHandle, sql: sql)
            sqlite3_close_v2(newHandle)
            throw error
        }
        statements.removeAll()
        slots.removeAll()
        sqlite3_busy_handler(handle, nil, nil)
        sqlite3_wal_hook(handle, nil, nil)
        sqlite3_close_v2(handle)
        (handle, access) = (newHandle, newAccess)
        generation &+= 1
        configureHandle()
    }

    private func configureHandle() {
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_handler(handle, Self.busyHandler, Unmanaged.passUnretained(self).toOpaque())
        _ = cart_sqlite3_enable_defensive(handle)
        if recordsLogSize { sqlite3_wal_hook(handle, Self.logHook, Unmanaged.passUnretained(self).toOpaque()) }
    }

    /// Makes this connection's commits record the write-ahead log's size in `logPages` instead
    /// of checkpointing the log once it holds 1,000 pages, as SQLite does by default: its
    /// automatic checkpoint is a write-ahead-log hook, which this one replaces. Checkpoints
    /// are then the owner's to run.
    func recordLogSize() {
        recordsLogSize = true
        sqlite3_wal_hook(handle, Self.logHook, Unmanaged.passUnretained(self).toOpaque())
    }

    /// SQLite calls the hook after each commit to a write-ahead log, with the log's size.
    private static let logHook: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, Int32)
        -> Int32 = { context, _, _, pages in
            if let context { Unmanaged<Database>.fromOpaque(context).takeUnretainedValue().logPages = pages }
            return SQLITE_OK
        }

    /// Copies what it can of the write-ahead log into the database file without waiting for
    /// any lock and without stopping readers or writers (`SQLITE_CHECKPOINT_PASSIVE`). It does
    /// nothing on a connection that has not read the file yet: SQLite opens the log at a
    /// connection's first read. Like SQLite's automatic checkpoint, it ignores failure: what
    /// one checkpoint could not copy (a reader still needs older pages, another connection is
    /// checkpointing) is left for the next.
    func checkpointPassively() {
        _ = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
    }

    /// Copies the whole write-ahead log into the database file and empties the log
    /// (`SQLITE_CHECKPOINT_TRUNCATE`), waiting, as a write does, for other connections' readers
    /// and writer. Does nothing on a connection that has not read the file yet.
    func checkpointFully() throws {
        guard sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_TRUNCATE, nil, nil) == SQLITE_OK else {
            throw lastError(sql: nil)
        }
    }

    private static let schemaVersion = CachedSQL("PRAGMA schema_version")

    /// Reads once, which opens the write-ahead log: SQLite opens it at a connection's first
    /// read, and until then a checkpoint on the connection does nothing.
    func openLog() throws {
        _ = try scalar(Self.schemaVersion)
    }

    /// Starts the lock deadline of a unit: `busyTimeout` from now, except for the first unit
    /// after an opening that waited for a lock, which keeps the opening's deadline.
    func beginUnit() {
        defer { opening = false }
        if opening && waited { return }
        lockDeadline = .now + busyTimeout
    }

    /// SQLite calls the handler each time a lock it needs is held by another connection; a
    /// non-zero answer makes it try again. It sleeps as SQLite's own busy timeout does (1, 2,
    /// 5… up to 100 ms between tries), but against `lockDeadline`, which all the statements of
    /// a unit share, where `sqlite3_busy_timeout` gives every statement a whole timeout of its
    /// own.
    private static let busyHandler: @convention(c) (UnsafeMutableRawPointer?, Int32) -> Int32 = { context, tries in
        guard let context else { return 0 }
        return Unmanaged<Database>.fromOpaque(context).takeUnretainedValue().waitForLock(tries: Int(tries)) ? 1 : 0
    }

    private static let pauses: [Duration] = [1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50].map { .milliseconds($0) }

    private func waitForLock(tries: Int) -> Bool {
        let left = lockDeadline - .now
        guard left > .zero else { return false }
        waited = true
        let pause = min(tries < Self.pauses.count ? Self.pauses[tries] : .milliseconds(100), left)
        usleep(useconds_t(max((pause / .microseconds(1)).rounded(.up), 1)))
        return true
    }

    static func open(_ name: String, flags: Int32) throws -> OpaquePointer {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(name, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let error =
                handle.map { DatabaseError.last(of: $0, code: code) }
                ?? DatabaseError(extendedResultCode: code, message: String(cString: sqlite3_errstr(code)))
            sqlite3_close_v2(handle)
            throw error
        }
        return handle
    }

    deinit {
        sqlite3_busy_handler(handle, nil, nil)
        sqlite3_wal_hook(handle, nil, nil)
        statements.removeAll()
        slots.removeAll()
        sqlite3_close_v2(handle)
    }

    /// The error SQLite recorded for the last failed call on this connection.
    func lastError(sql: String?) -> DatabaseError {
        DatabaseError.last(of: handle, sql: sql)
    }

    /// Runs SQL text that binds no values: schema scripts and pragmas.
    func execute(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw lastError(sql: sql) }
    }

    /// The statement for `sql`, prepared once per connection and reset for reuse.
    func cached(_ sql: String) throws -> Statement {
        if let statement = statements[sql] {
            statement.reset()
            return statement
        }
        let statement = try prepare(sql, persistent: true)
        statements[sql] = statement
        return statement
    }

    /// The statement for `sql`, prepared once per connection and reset for reuse.
    func cached(_ sql: CachedSQL) throws -> Statement {
        if sql.slot < slots.count, let statement = slots[sql.slot] {
            statement.reset()
            return statement
        }
        let statement = try prepare(sql.text, persistent: true)
        if sql.slot >= slots.count { slots += repeatElement(nil, count: sql.slot - slots.count + 1) }
        slots[sql.slot] = statement
        return statement
    }

    /// A statement prepared for one use.
    func prepare(_ sql: String, persistent: Bool = false) throws -> Statement {
        var pointer: OpaquePointer?
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        guard sqlite3_prepare_v3(handle, sql, -1, flags, &pointer, nil) == SQLITE_OK, let pointer else {
            throw lastError(sql: sql)
        }
        return Statement(handle: pointer, sql: sql, database: self)
    }

    /// The single integer a query returns, or `nil` when it returns no row.
    func scalar(_ sql: CachedSQL) throws -> Int64? {
        let statement = try cached(sql)
        defer { statement.reset() }
        return try statement.step() ? statement.int64(at: 0) : nil
    }

    private static let beginImmediate = CachedSQL("BEGIN IMMEDIATE")
    private static let beginDeferred = CachedSQL("BEGIN DEFERRED")
    private static let commit = CachedSQL("COMMIT")
    private static let rollback = CachedSQL("ROLLBACK")

    /// Runs `body` in a transaction: committed if it returns, rolled back if it throws.
    func transaction<Result>(_ kind: TransactionKind, _ body: () throws -> Result) throws -> Result {
        try cached(kind == .immediate ? Self.beginImmediate : Self.beginDeferred).run()
        let result: Result
        do {
            result = try body()
            try cached(Self.commit).run()
        } catch {
            // SQLite has already rolled back after some errors (SQLITE_FULL, SQLITE_IOERR…).
            if !isAutocommit {
                _ = try? cached(Self.rollback).run()
            }
            throw error
        }
        return result
    }

    /// Whether no transaction is open on the connection.
    var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    /// Whether the connection can only read (a read-only file or directory).
    var isReadOnly: Bool { access != .readWrite }
}

extension Database {
    /// Rows changed by the last INSERT, UPDATE or DELETE (not counting cascades).
    var changes: Int { Int(sqlite3_changes64(handle)) }

    /// Fails unless the write just run (`sql`, by the primary key `key` of a row the unit has
    /// read) changed exactly one row. Stored text that is not valid UTF-8 (which only another
    /// client can write) reads back with U+FFFD, so its key no longer finds the row, and a
    /// write that silently changed nothing would lose a stock decrement or leave a line behind.
    ///
    /// - Throws: `DatabaseError` when no row, or more than one, changed.
    func requireOneRowChanged(_ sql: CachedSQL, key: String) throws {
        let changed = changes
        guard changed != 1 else { return }
        throw DatabaseError(
            extendedResultCode: SQLITE_ERROR,
            message: "a write by the key '\(key)' changed \(changed) rows instead of 1: the row is gone, or its "
                + "stored key is not valid UTF-8 (written by another client); nothing was saved",
            sql: sql.text)
    }
}
