import CSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Database {
    /// How a connection reads and writes its file.
    ///
    /// A process that cannot write the file (its permissions, a read-only mount), or cannot
    /// create the files SQLite needs beside it (an unwritable directory), reads through a
    /// read-only connection, and its writes fail with `SQLITE_READONLY`:
    /// - `readOnly` (`mode=ro`) takes SQLite's locks, so a writer cannot change what it reads,
    ///   and reads a write-ahead log through the `-shm` beside it. It needs those files to
    ///   exist when the file is in WAL mode: SQLite would otherwise create them, as this
    ///   process, beside a file that may belong to someone else.
    /// - `lockFree` (`immutable=1`) is for a WAL file without a log beside it, which holds
    ///   every commit then; SQLite takes no locks and reads the file alone. A writer that
    ///   starts meanwhile writes its own log, and its checkpoint may write pages under the
    ///   read, so a unit that saw the file change runs again (`consistentRead(_:)`).
    ///
    /// A file in rollback-journal mode is always `readOnly`: SQLite's locks keep a writer out,
    /// and a hot journal a crash left is reported, never read past.
    enum Access: Equatable {
        /// Reads and writes, with SQLite's locks.
        case readWrite
        /// Reads with SQLite's locks; `reason` says why it cannot write, when SQLite's own
        /// words would not (an unwritable directory).
        case readOnly(reason: String?)
        /// Reads the file as it was when `opened` described it, without locks.
        case lockFree(opened: FileState, reason: String?)
    }

    /// The database file and the files beside it, as far as opening it depends on them.
    struct FileState: Equatable {
        /// The database file's identity, size and change times; `nil` when it does not exist.
        let database: FileInfo.Signature?
        /// The write-ahead log's size; `nil` when there is no `-wal`.
        let logSize: Int64?
        /// Whether the `-shm` beside a write-ahead log exists.
        let hasSharedMemory: Bool
        /// Whether this process can write both the `-wal` and the `-shm`.
        let canWriteLog: Bool
        /// Whether a rollback journal (`-journal`) exists.
        let hasJournal: Bool
        /// The file format in the database header: 1 for a rollback journal, 2 for WAL.
        let format: UInt8?

        /// The files at `path`, whose header is read through `handle`, a connection that
        /// opened it (`Database.header(of:)`).
        init(_ path: String, openedBy handle: OpaquePointer) {
            database = FileInfo(path).signature
            let log = FileInfo(path + "-wal")
            logSize = log.exists ? log.size : nil
            hasSharedMemory = FileInfo(path + "-shm").exists
            canWriteLog = FileInfo.isWritable(path + "-wal") && FileInfo.isWritable(path + "-shm")
            hasJournal = FileInfo(path + "-journal").exists
            format = Database.header(of: handle).map { $0[19] }
        }

        /// Whether the file is in WAL mode.
        var isWAL: Bool { format == 2 }

        /// Whether a write-ahead log beside the file may hold commits, which only a
        /// connection that takes locks reads: a log with content, or one whose `-shm` is there.
        var hasLog: Bool { (logSize ?? 0) > 0 || (logSize != nil && hasSharedMemory) }

        /// Whether reading the file needs a file created or removed beside it: the log and
        /// `-shm` of a WAL file that this process cannot write, or a journal a crash left
        /// (recovering it removes it).
        var needsFilesBeside: Bool { isWAL ? !canWriteLog : hasJournal }
    }

    /// Opens `path` as `Access` describes: read-write when this process can write the file and
    /// what SQLite needs beside it, else read-only or lock-free. Creates a missing file only
    /// when `creating`.
    static func connect(_ path: String, creating: Bool) throws -> (OpaquePointer, Access) {
        let common = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        let handle = try open(path, flags: SQLITE_OPEN_READWRITE | (creating ? SQLITE_OPEN_CREATE : 0) | common)
        guard path != ":memory:" else { return (handle, .readWrite) }
        let directoryIsWritable = FileInfo.isWritable(FileInfo.parentDirectory(of: path))
        let fileIsWritable = sqlite3_db_readonly(handle, "main") != 1
        if fileIsWritable, directoryIsWritable { return (handle, .readWrite) }
        let files = FileState(path, openedBy: handle)
        var reason: String?
        if fileIsWritable {
            guard files.needsFilesBeside else { return (handle, .readWrite) }
            reason = "its directory is not writable, so SQLite cannot create or remove the files it needs beside it"
        }
        sqlite3_close_v2(handle)
        let lockFree = files.isWAL && !files.hasLog
        let readOnly = try open(
            uri(path, query: lockFree ? "immutable=1" : "mode=ro"), flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | common)
        return (readOnly, lockFree ? .lockFree(opened: files, reason: reason) : .readOnly(reason: reason))
    }

    /// A `file:` URI for `path` with `query`; `%`, `?` and `#` are escaped.
    static func uri(_ path: String, query: String) -> String {
        var escaped = ""
        for character in path {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3F"
            case "#": escaped += "%23"
            default: escaped.append(character)
            }
        }
        // An absolute path gets an empty authority (`file:///…`), so `//x` is never a host.
        return (path.hasPrefix("/") ? "file://" : "file:") + escaped + "?" + query
    }

    /// Why this connection cannot write, in words for a write's error, when SQLite's own
    /// words would not say it (an unwritable directory).
    var readOnlyReason: String? {
        switch access {
        case .readWrite: nil
        case .readOnly(let reason), .lockFree(_, let reason): reason
        }
    }

    /// Whether the file this connection opened is no longer the one at `path`: it was deleted,
    /// renamed, or replaced by another file. SQLite compares the open file with what `stat`
    /// finds at the path; it answers no for a file it opened without locks (`isStale` covers
    /// that) and for `:memory:`.
    var hasMoved: Bool {
        var moved: Int32 = 0
        return sqlite3_file_control(handle, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK && moved != 0
    }

    /// Whether the file this connection opened no longer starts with a SQLite header: another
    /// program wrote over it in place (a shell's `>`, `cp`), which neither `hasMoved` nor
    /// `PRAGMA data_version` sees. Never for `:memory:`, which has no file.
    var isOverwritten: Bool { path != ":memory:" && Self.header(of: handle) == nil }

    /// The first 20 bytes of the database file `handle` opened, `nil` when they are not a
    /// SQLite header (byte 19 is the file format: 1 for a rollback journal, 2 for WAL). It
    /// reads through SQLite's own descriptor, one `pread`: opening the file again and closing
    /// that descriptor would drop every POSIX lock this process holds on the file, SQLite's
    /// included, and another process could then take the file for unused and delete its
    /// write-ahead log.
    static func header(of handle: OpaquePointer) -> [UInt8]? {
        var file: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_FILE_POINTER, &file) == SQLITE_OK, let file,
            let read = file.pointee.pMethods?.pointee.xRead
        else { return nil }
        var header = [UInt8](repeating: 0, count: 20)
        guard read(file, &header, 20, 0) == SQLITE_OK, header.prefix(16).elementsEqual("SQLite format 3\0".utf8)
        else { return nil }
        return header
    }

    /// Whether the connection reads without locks and the file changed since it opened: what
    /// it reads may be out of date, or a mix of pages from before and after a checkpoint.
    var isStale: Bool {
        guard case .lockFree(let opened, _) = access else { return false }
        return FileState(path, openedBy: handle) != opened
    }

    /// Runs `unit`, a read; on a connection that cannot write, runs it again on a fresh
    /// connection (`reopen()`) until it reads one consistent snapshot, or the unit's lock
    /// deadline passes:
    /// - a lock-free connection reopens first when the file changed since it opened, and again
    ///   when the file changed while the unit ran (whatever the unit returned or threw);
    /// - a read-only connection reopens when SQLite failed because the files beside the
    ///   database changed as it opened them: a writer's last connection removed the log
    ///   (`SQLITE_READONLY_DIRECTORY`, `SQLITE_CANTOPEN`), or a writer was changing the
    ///   `-shm` header (`SQLITE_READONLY_RECOVERY`, `SQLITE_BUSY_RECOVERY`).
    ///
    /// The unit must have no effect outside the database but what it can do again.
    ///
    /// - Throws: what the unit throws otherwise; `DatabaseError` (busy) when the file kept
    ///   changing until the deadline.
    func consistentRead<Result>(_ unit: () throws -> Result) throws -> Result {
        guard isReadOnly else { return try unit() }
        var needsReopening = isStale
        while true {
            do {
                if needsReopening { try reopen() }
                let result = try unit()
                guard isStale else { return result }
            } catch {
                guard isStale || Self.changedBeside(error) else { throw error }
                guard ContinuousClock.now < lockDeadline else { throw explained(error) }
            }
            guard ContinuousClock.now < lockDeadline else {
                throw DatabaseError(
                    extendedResultCode: SQLITE_BUSY, message: "the file kept changing while it was read",
                    explanation: "the database kept changing while this process, which cannot write it, read it")
            }
            usleep(2_000)
            needsReopening = true
        }
    }

    /// `error`, or, when the files beside the database show why SQLite could not open them
    /// (a write-ahead log with content whose `-shm` is gone, in a directory this process
    /// cannot write), an error that says so.
    private func explained(_ error: any Error) -> any Error {
        let files = FileState(path, openedBy: handle)
        guard files.isWAL, (files.logSize ?? 0) > 0, !files.hasSharedMemory,
            !FileInfo.isWritable(FileInfo.parentDirectory(of: path))
        else { return error }
        return DatabaseError(
            extendedResultCode: SQLITE_CANTOPEN, message: "the -shm beside a write-ahead log is missing",
            explanation: "the write-ahead log beside the file holds commits, but its -shm is missing and the directory "
                + "is not writable; a process that can write the directory must open the file once")
    }

    /// Whether a read-only connection's error says only that the files beside the database
    /// changed as SQLite opened them (see `consistentRead(_:)`).
    private static func changedBeside(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        let changed: Set<Int32> = [
            SQLITE_READONLY | 6 << 8, SQLITE_READONLY | 5 << 8, SQLITE_READONLY | 1 << 8, SQLITE_BUSY | 1 << 8,
        ]
        return changed.contains(error.extendedResultCode) || error.resultCode == SQLITE_CANTOPEN
    }
}
