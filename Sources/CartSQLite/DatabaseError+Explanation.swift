import CSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension DatabaseError {
    /// What happened, in words for people who do not know SQLite's result codes: "the disk is
    /// full", "its directory is not writable…"; `nil` for SQLite's generic `SQLITE_ERROR`, whose
    /// message says it already (a missing table, or one of this library's own messages).
    public var explanation: String? {
        guard let words = ownExplanation ?? Self.extendedExplanations[extendedResultCode] ?? Self.primaryExplanations[resultCode]
        else { return nil }
        // The system's reason says what SQLite's code cannot: a full disk behind a failed write
        // of the -shm file, say.
        guard resultCode == SQLITE_IOERR, systemErrno != 0, let text = strerror(systemErrno) else { return words }
        let reason = String(cString: text)
        return words + ": " + reason.prefix(1).lowercased() + reason.dropFirst()
    }

    /// The explanation, when it says more than the category does: not for a plain lock held by
    /// another connection, nor a plain read-only file.
    public var reason: String? {
        guard ownExplanation != nil || (extendedResultCode != SQLITE_BUSY && extendedResultCode != SQLITE_READONLY)
        else { return nil }
        return explanation
    }

    private static func extended(_ primary: Int32, _ detail: Int32) -> Int32 { primary | detail << 8 }

    private static let primaryExplanations: [Int32: String] = [
        SQLITE_FULL: "the disk is full",
        SQLITE_IOERR: "reading or writing the file failed (an I/O error)",
        SQLITE_CANTOPEN: "the file cannot be opened",
        SQLITE_PERM: "the operating system denied access to the file",
        SQLITE_READONLY: "the database cannot be written by this process",
        SQLITE_BUSY: "the database is locked by another connection",
        SQLITE_LOCKED: "a table is locked by another statement of the same connection",
        SQLITE_CORRUPT: "the database file is damaged",
        SQLITE_NOTADB: "the file is not a SQLite database",
        SQLITE_NOMEM: "SQLite ran out of memory",
        SQLITE_TOOBIG: "a value is larger than SQLite allows",
        SQLITE_CONSTRAINT: "a row would break a rule of the schema",
        SQLITE_PROTOCOL: "SQLite's locking protocol failed: another process kept changing the files beside the database",
        SQLITE_MISMATCH: "a value has the wrong type",
        SQLITE_SCHEMA: "the schema changed while a statement was being prepared",
        SQLITE_INTERRUPT: "the operation was interrupted",
        SQLITE_ABORT: "the operation was aborted",
        SQLITE_AUTH: "the operation is not authorized",
        SQLITE_RANGE: "a statement parameter is out of range",
        SQLITE_NOLFS: "the file is too large for this system",
        SQLITE_MISUSE: "SQLite was called in a way it does not support",
    ]

    private static let extendedExplanations: [Int32: String] = [
        extended(SQLITE_IOERR, 1): "reading the file failed (an I/O error)",
        extended(SQLITE_IOERR, 2): "the file ended where SQLite expected more of it",
        extended(SQLITE_IOERR, 3): "writing the file failed (an I/O error)",
        extended(SQLITE_IOERR, 4): "flushing the file to disk failed",
        extended(SQLITE_IOERR, 5): "flushing the file's directory to disk failed",
        extended(SQLITE_IOERR, 6): "shortening the file failed",
        extended(SQLITE_IOERR, 7): "reading the file's size and times failed",
        extended(SQLITE_IOERR, 8): "unlocking the file failed",
        extended(SQLITE_IOERR, 9): "locking the file for reading failed",
        extended(SQLITE_IOERR, 10): "deleting a journal file beside the database failed",
        extended(SQLITE_IOERR, 12): "SQLite ran out of memory while reading or writing the file",
        extended(SQLITE_IOERR, 13): "checking a file beside the database failed",
        extended(SQLITE_IOERR, 14): "checking the file's lock failed",
        extended(SQLITE_IOERR, 15): "locking the file failed",
        extended(SQLITE_IOERR, 16): "closing the file failed",
        extended(SQLITE_IOERR, 18): "opening the shared-memory file (-shm) beside the database failed",
        extended(SQLITE_IOERR, 19): "growing the shared-memory file (-shm) beside the database failed",
        extended(SQLITE_IOERR, 20): "locking the shared-memory file (-shm) beside the database failed",
        extended(SQLITE_IOERR, 21): "mapping the shared-memory file (-shm) beside the database failed",
        extended(SQLITE_IOERR, 22): "seeking in the file failed",
        extended(SQLITE_IOERR, 24): "mapping the file into memory failed",
        extended(SQLITE_IOERR, 25): "no directory for temporary files can be found",
        extended(SQLITE_IOERR, 32): "a page of the file does not match its checksum",
        extended(SQLITE_IOERR, 33): "the file system reports that the file is damaged",
        extended(SQLITE_CANTOPEN, 1): "no directory for temporary files can be found",
        extended(SQLITE_CANTOPEN, 2): "the path is a directory",
        extended(SQLITE_CANTOPEN, 3): "the file's full path cannot be worked out",
        extended(SQLITE_CANTOPEN, 6): "the path is a symbolic link, which this connection may not follow",
        extended(SQLITE_READONLY, 1):
            "the write-ahead log beside the file needs recovery, which only a process that can write the file can do",
        extended(SQLITE_READONLY, 2): "the shared-memory file (-shm) beside the database cannot be locked",
        extended(SQLITE_READONLY, 3):
            "the file has a hot journal from a crash; a process that can write the file and its directory must open it "
            + "once to recover it",
        extended(SQLITE_READONLY, 4): "the file was moved, renamed or deleted while it was open",
        extended(SQLITE_READONLY, 6):
            "its directory is not writable, so SQLite cannot create the journal files it needs beside it",
        extended(SQLITE_BUSY, 1): "another connection is recovering the database after a crash",
        extended(SQLITE_BUSY, 2): "another connection changed the database since this transaction read it",
        extended(SQLITE_CORRUPT, 3): "an index of the database file is damaged",
        extended(SQLITE_CONSTRAINT, 1): "a value would break a CHECK constraint of the schema",
        extended(SQLITE_CONSTRAINT, 3): "a row would reference a row that does not exist",
        extended(SQLITE_CONSTRAINT, 5): "a required value is missing",
        extended(SQLITE_CONSTRAINT, 6): "a row with the same key already exists",
        extended(SQLITE_CONSTRAINT, 8): "a row with the same unique value already exists",
        extended(SQLITE_CONSTRAINT, 12): "a value has the wrong type for its column",
    ]
}
