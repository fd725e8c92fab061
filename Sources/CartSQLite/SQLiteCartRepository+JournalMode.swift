import CSQLite

/// The file's journal mode: a store is kept in WAL mode, so that its reads wait for no write.
extension SQLiteCartRepository {
    private static let journalMode = CachedSQL("PRAGMA journal_mode")

    /// SQLite's journal mode for the file (`wal` normally). A connection that reads a WAL
    /// file without locks would answer `delete`: the file header says what the file is.
    func currentJournalMode() throws -> String {
        if database.isReadOnly, Database.header(of: database.handle)?[19] == 2 { return "wal" }
        let mode = try database.cached(Self.journalMode)
        defer { mode.reset() }
        return try mode.step() ? mode.string(at: 0) : ""
    }

    /// Switches a file database to WAL, unless it already is or cannot be written: a read-only
    /// file must stay untouched, and in a directory this process cannot write, SQLite could not
    /// create the log (a file there stays in its rollback-journal mode; its reads need no
    /// file beside it).
    func enableWriteAheadLog() throws {
        guard !database.isReadOnly else { return }
        let current = try currentJournalMode()
        guard current != "wal", current != "memory", FileInfo.isWritable(FileInfo.parentDirectory(of: database.path))
        else { return }
        try database.execute("PRAGMA journal_mode = WAL")
    }

    /// Switches a file that came in another journal mode (a backup in rollback-journal mode
    /// moved into place, or given back its write access) to WAL, as opening it would. The
    /// store works in either mode: when the switch cannot be made (another process holds a
    /// lock past the busy timeout), the file keeps its mode and the next follow or reopen
    /// tries again.
    func switchToWriteAheadLog() {
        try? enableWriteAheadLog()
    }
}
