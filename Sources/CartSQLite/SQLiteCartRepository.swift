#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
public import CartCore
import CSQLite
#if canImport(Glibc)
import Glibc
#endif

/// A `CartRepository` that keeps everything in one SQLite file, so carts and orders survive
/// restarts and are shared by every process that opens the file.
///
/// Opening a file runs the pending migrations embedded from `Migrations/` and refuses (before
/// writing anything) a file written by a newer build, with a changed migration, or of another
/// application. Connections use WAL, `synchronous = NORMAL`, `foreign_keys = ON`, a busy
/// timeout, and write units in `BEGIN IMMEDIATE` transactions, so concurrent writers from many
/// processes queue instead of losing updates. Statements are prepared once per connection.
///
/// ```swift
/// let repository = try SQLiteCartRepository(path: "/var/lib/shop/cart.sqlite3")
/// let service = CartService(repository: repository)
/// ```
///
/// A path is a file name, byte for byte: `:memory:` and `file:…?mode=memory` name files like
/// any other, so nothing in a path can switch off locking or durability. For a private
/// in-memory database, use `inMemory(initialSettings:)`.
public final class SQLiteCartRepository: CartRepository, @unchecked Sendable {
    // @unchecked: the connection and the commit count are only used while `lock` is held;
    // `checkpointer` is only set in `init`.
    let lock = Lock()
    private static let dataVersion = CachedSQL("PRAGMA data_version")
    let database: Database
    private var localCommits: Int64 = 0
    /// Why the file at `path` is not a store this repository can use, since `changeToken()`
    /// found the file it opened deleted, moved away or replaced by one that is not a usable
    /// store; writes throw it rather than go into a file no other process sees. `nil` while
    /// the file is the one opened, or a usable store that replaced it.
    private var fileProblem: (any Error)?
    /// The settings a file gets when a migration creates it.
    let initialSettings: StoreSettings
    /// The connections reads use while this one writes; `nil` when reads use this one.
    private let readers: SQLiteReaderPool?
    /// Checkpoints the write-ahead log outside `lock` when reads have connections of their
    /// own (a server); `nil` when the writing connection's commits checkpoint, as SQLite's do
    /// by default. Set once, in `init`.
    private var checkpointer: SQLiteCheckpointer?

    /// The file's path as given, or `:memory:` for `inMemory(initialSettings:)`.
    public let path: String

    /// Opens or creates the database at `path`. The directory must exist: a missing one, a
    /// path through something that is not a directory, or a directory this process cannot
    /// write for a new file is refused with `StoreLocationError.unusable`, which names the
    /// file and the cause, as are an empty path, a directory and anything that is not a
    /// regular file.
    ///
    /// A file this process cannot write is opened read-only: reads work, and every write unit
    /// throws a `DatabaseError` whose `isReadOnly` is true (as do pending migrations).
    ///
    /// - Parameters:
    ///   - busyTimeout: how long a unit waits for another connection's write lock before
    ///     failing with a `DatabaseError` whose `isBusy` is true.
    ///   - initialSettings: the settings of a newly created database, ignored for an existing
    ///     one; checked first in either case, so that settings out of range leave no file behind.
    ///   - migrate: apply pending migrations now (`false` opens a database as it is, for
    ///     `status()` and an explicit `migrate()`).
    ///   - readers: how many more connections read while this one writes, for a repository
    ///     that serves many threads (a server); 0 reads through the writing connection, which
    ///     suits a short command. Each opens on first use. With readers, one more connection
    ///     checkpoints the write-ahead log (`SQLiteCheckpointer`).
    /// - Throws: `CartError.invalidSetting` for `initialSettings` out of range,
    ///   `StoreLocationError.unusable` for the paths above and a file with more than
    ///   one name (hard link), `.unexpandedHome` for a path such as `~/shop.sqlite3` whose
    ///   `~` directory does not exist (no shell expanded it), `MigrationError` for a file this
    ///   build must not touch,
    ///   `DatabaseError` when SQLite cannot open or read it (not a database, busy…).
    public convenience init(
        path: String, busyTimeout: Duration = .seconds(5), initialSettings: StoreSettings = .defaults,
        migrate: Bool = true, readers: Int = 0
    ) throws {
        try self.init(
            path: path, busyTimeout: busyTimeout, initialSettings: initialSettings, migrate: migrate, readers: readers,
            create: true)
    }

    /// Opens the database at `path` as the public initializer does; with `create` false, a
    /// file that holds no table yet (a 0-byte file, or a SQLite header alone) is no store
    /// and is left as it is, as a PostgreSQL schema without tables is.
    ///
    /// - Throws: the errors of the public initializer, and `StoreLocationError.noStore` for
    ///   such a file when `create` is false.
    convenience init(
        path: String, busyTimeout: Duration, initialSettings: StoreSettings, migrate: Bool, readers: Int, create: Bool
    ) throws {
        _ = try initialSettings.validated()
        try Self.checkFile(path)
        try Self.checkDirectory(of: path)
        // A relative name is given a `./`, which SQLite never reads as `:memory:` or a URI.
        let fileName = path.hasPrefix("/") ? path : "./" + path
        // SQLite names the journal and the write-ahead log after the name a file is opened by
        // (it follows symbolic links, not hard links), so processes opening one file by two
        // names each keep a log of their own and lose each other's updates.
        let links = FileInfo(fileName).linkCount
        guard links <= 1 else {
            throw StoreLocationError.unusable(
                location: path,
                reason: "it has \(links) names (hard links), and SQLite loses updates between processes that open one "
                    + "file by different names; remove the other names (or copy the file) and use one")
        }
        try self.init(
            fileName: fileName, path: path, busyTimeout: busyTimeout, initialSettings: initialSettings, migrate: migrate,
            readers: readers, create: create)
    }

    private init(
        fileName: String, path: String, busyTimeout: Duration, initialSettings: StoreSettings, migrate: Bool,
        readers: Int, create: Bool
    ) throws {
        self.database = try Database(path: fileName, busyTimeout: busyTimeout)
        self.path = path
        self.initialSettings = initialSettings
        self.readers =
            readers > 0
            ? SQLiteReaderPool(capacity: readers, wait: busyTimeout) {
                // The writing connection made the file; one deleted since is not made again.
                let reader = try Database(path: fileName, busyTimeout: busyTimeout, creating: false)
                try reader.configure("PRAGMA query_only = ON")
                return reader
            } : nil
        try settingUp {
            try database.consistentRead {
                try prepareSchema(migrate: migrate, create: create, initialSettings: initialSettings)
                try database.configure("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON")
            }
        }
        if readers > 0, let checkpointer = try openCheckpointer(fileName: fileName, busyTimeout: busyTimeout) {
            self.checkpointer = checkpointer
            database.recordLogSize()
        }
    }

    /// A checkpointer on a connection of its own, opened now so that a failure shows here and
    /// not as a log that grows; `nil` for a file without a write-ahead log, or one that
    /// connection cannot write, whose checkpoints the writing connection's commits keep.
    private func openCheckpointer(fileName: String, busyTimeout: Duration) throws -> SQLiteCheckpointer? {
        guard !database.isReadOnly, try currentJournalMode() == "wal" else { return nil }
        let connection = try Database(path: fileName, busyTimeout: busyTimeout, creating: false)
        guard !connection.isReadOnly else { return nil }
        try connection.openLog()
        return SQLiteCheckpointer(connection: connection)
    }

    /// Runs `setup`, which switches a file to WAL or migrates it, until it gets through or the
    /// busy timeout passes. Those steps take locks that SQLite does not wait for when waiting
    /// could deadlock (it answers SQLITE_BUSY at once): another process is setting the same
    /// file up, so this one gives it a moment, then looks again from the start.
    private func settingUp<Result>(_ setup: () throws -> Result) throws -> Result {
        while true {
            do {
                return try setup()
            } catch let error as DatabaseError where error.isBusy && ContinuousClock.now < database.lockDeadline {
                usleep(5_000)
            }
        }
    }

    /// Refuses a file this build must not touch, or one without tables unless `create`,
    /// switches it to WAL and applies pending migrations (when asked), in that order, so a
    /// refused file is never written. A file with migrations pending stays as it is until
    /// they are applied (see `applyPendingMigrations`).
    private func prepareSchema(migrate: Bool, create: Bool, initialSettings: StoreSettings) throws {
        let applied = try Migrator.shipped.applied(in: database)
        if applied.isEmpty, !create { throw StoreLocationError.noStore(location: path) }
        guard applied.count < Migrator.shipped.migrations.count else { return try enableWriteAheadLog() }
        var names: [String] = []
        if migrate { try applyPendingMigrations(toNewFile: applied.isEmpty, initialSettings: initialSettings, adding: &names) }
    }

    /// Refuses a file holding rows that reference nothing, with a read (the migration's own
    /// check would refuse it too, with less to go on). A new file is switched to WAL first, so
    /// that processes creating it at once wait for each other as they do afterwards. A file
    /// that already holds migrations is migrated in the journal mode it has and switched to
    /// WAL (which rewrites its header) only once that succeeded: a migration its data makes
    /// fail rolls back to the very bytes it found. Rare (a file is migrated once), so the
    /// order's cost does not matter.
    /// The names of the migrations applied are added to `names` as soon as they are
    /// committed, so a retry after the switch to WAL still reports them.
    private func applyPendingMigrations(toNewFile isNew: Bool, initialSettings: StoreSettings, adding names: inout [String])
        throws
    {
        try Migrator.shipped.checkForeignKeys(database)
        if isNew { try enableWriteAheadLog() }
        names += try Migrator.shipped.migrate(database, initialSettings: initialSettings, now: Date())
        try enableWriteAheadLog()
    }

    /// A private in-memory SQLite database, gone when the repository is released; for tests.
    ///
    /// - Throws: `DatabaseError`.
    public static func inMemory(initialSettings: StoreSettings = .defaults) throws -> SQLiteCartRepository {
        try SQLiteCartRepository(
            fileName: ":memory:", path: ":memory:", busyTimeout: .seconds(5), initialSettings: initialSettings,
            migrate: true, readers: 0, create: true)
    }

    /// Runs `body` on the writing connection, under the lock, as one unit with a lock deadline
    /// of its own (`Database.beginUnit()`).
    func withConnection<Result>(_ body: () throws -> Result) throws -> Result {
        try lock.withLock {
            database.beginUnit()
            return try body()
        }
    }

    public func write<Result>(_ body: (any CartStorageWriter) throws -> Result) throws -> Result {
        let (result, logPages) = try withConnection {
            // A write to a file deleted or replaced since it was opened would go where no other
            // process looks, and in WAL mode SQLite does not refuse it: the write follows the
            // file now at the path, or fails as a poll would.
            if fileProblem != nil || database.hasMoved { try followFileAtPath() }
            try reopenIfNowWritable()
            if let reason = database.readOnlyReason { throw DatabaseError.readOnly(reason: reason) }
            let result = try database.transaction(.immediate) { try body(SQLiteCartStorage(database: database)) }
            localCommits += 1
            return (result, database.logPages)
        }
        if let checkpointer, logPages >= SQLiteCheckpointer.logPagesThreshold {
            checkpointer.checkpoint { pass in lock.withLock(pass) }
        }
        return result
    }

    public func read<Result>(_ body: (any CartStorageReader) throws -> Result) throws -> Result {
        if let readers {
            return try readers.withReader { reader in
                reader.beginUnit()
                return try reader.consistentRead {
                    try reader.transaction(.deferred) {
                        try body(SQLiteCartStorage(database: reader))
                    }
                }
            }
        }
        return try withConnection {
            try database.consistentRead {
                try database.transaction(.deferred) {
                    try body(SQLiteCartStorage(database: database))
                }
            }
        }
    }

    /// Changes when this connection commits (a local counter) or another connection, in any
    /// process, commits (`PRAGMA data_version`). Costs one tiny pragma, a `stat` and a read of
    /// the file's header, no table read. A connection that reads without locks sees no other
    /// connection's commit, so it opens again when the file changed, which changes the token
    /// too.
    ///
    /// When the file was deleted, renamed, replaced or written over since it was opened, the
    /// repository follows the file now at the path if it is a store this build uses as it is
    /// (a backup moved into place), which changes the token; otherwise it throws why not, on
    /// every call until the path holds such a store, and so do writes. Watchers thus show the
    /// store that other processes see, or stop, rather than watch a file nobody can see. A file
    /// moved into place must come without the old file's `-wal` and `-shm`, removed before the
    /// rename as SQLite requires: SQLite applies a log it finds beside the path to whatever
    /// file is there.
    ///
    /// - Throws: `DatabaseError`; for a file deleted, renamed or replaced, the errors of
    ///   `followFileAtPath()`.
    public func changeToken() throws -> Int64 {
        try withConnection {
            if fileProblem != nil || database.hasMoved || database.isOverwritten {
                try followFileAtPath()
            } else if database.isStale {
                try database.reopen()
            }
            let version = try database.scalar(Self.dataVersion) ?? 0
            return version &+ localCommits &+ Int64(database.generation) << 32
        }
    }

    /// Throws when the writing connection has the file open read-only: the file or its
    /// directory was not writable when it was opened (a file restored read-only under a
    /// server), and still is not. A file whose mode changes while open stays writable through
    /// the connection.
    ///
    /// - Throws: `DatabaseError` of category `readOnly`.
    public func checkWritable() throws {
        try withConnection {
            try reopenIfNowWritable()
            guard database.isReadOnly else { return }
            // SQLite's own code for a write to a connection that opened the file read-only.
            throw DatabaseError(
                extendedResultCode: SQLITE_READONLY, message: "attempt to write a readonly database",
                explanation: database.readOnlyReason)
        }
    }

    /// Opens the file again when the writing connection has it open read-only but this
    /// process may write it and its directory now (their mode or owner was given back), so
    /// that writes resume without a restart; `reopen()` decides the access afresh, and with
    /// both writable it opens the file for writing, so no write reopens it again and again.
    /// Runs under `lock`.
    private func reopenIfNowWritable() throws {
        guard database.isReadOnly, FileInfo.isWritable(database.path),
            FileInfo.isWritable(FileInfo.parentDirectory(of: database.path))
        else { return }
        try database.reopen()
        switchToWriteAheadLog()
    }

    /// Opens the file now at `path` in place of the one the connections opened, and checks
    /// that it is a store this build uses as it is; the read connections open it again too.
    /// Until the path holds such a store, it throws why not each time, and writes throw the
    /// same (`fileProblem`). Runs under `lock`.
    ///
    /// - Throws: `DatabaseError.fileGone` when nothing is at the path, a `DatabaseError` when
    ///   the file is not a SQLite database, `StoreLocationError.noStore` for one without
    ///   tables, `MigrationError` for another application's, a newer or changed store, or one
    ///   with migrations pending (a poll applies none).
    private func followFileAtPath() throws {
        do {
            guard FileInfo(database.path).exists else { throw DatabaseError.fileGone }
            try database.reopen()
            readers?.closeConnections()
            let applied = try database.consistentRead { try Migrator.shipped.applied(in: database) }
            if applied.isEmpty { throw StoreLocationError.noStore(location: path) }
            let pending = Migrator.shipped.plan.pending(after: applied).map(\.name)
            if !pending.isEmpty { throw MigrationError.pendingMigrations(pending) }
            fileProblem = nil
            switchToWriteAheadLog()
        } catch {
            fileProblem = error
            throw error
        }
    }

    /// Copies every change in the write-ahead log into the database file and empties the log,
    /// waiting up to the busy timeout for other connections: what a server does as it stops,
    /// so that the file alone holds every change, for a copy of it or a store renamed over it.
    /// The log's files stay beside it while other processes have the store open.
    ///
    /// - Throws: `DatabaseError`, busy when another process kept its locks past the timeout.
    public func checkpoint() throws {
        try withConnection { try database.checkpointFully() }
    }

    /// The migrations applied to the file, read in a transaction of their own.
    func appliedMigrations() throws -> [AppliedMigration] {
        try database.transaction(.deferred) { try Migrator.shipped.applied(in: database) }
    }

    /// Applies pending migrations, once, for whichever process gets there first. With none
    /// pending it writes nothing, so an up-to-date file that cannot be written is no error.
    func applyMigrations() throws -> [String] {
        var names: [String] = []
        try settingUp {
            let applied = try database.consistentRead { try Migrator.shipped.applied(in: database) }
            // Applied already, perhaps by this call before its switch to WAL was refused.
            guard applied.count < Migrator.shipped.migrations.count else { return try enableWriteAheadLog() }
            try applyPendingMigrations(toNewFile: applied.isEmpty, initialSettings: initialSettings, adding: &names)
        }
        if !names.isEmpty { localCommits += 1 }
        return names
    }

    /// The `EXPLAIN QUERY PLAN` detail lines of `sql`.
    func explain(_ sql: String) throws -> [String] {
        try withConnection {
            let statement = try database.prepare("EXPLAIN QUERY PLAN " + sql)
            var details: [String] = []
            while try statement.step() { details.append(try statement.string(at: 3)) }
            return details
        }
    }
}
