import CartCore

/// Checkpoints a server repository's write-ahead log on a connection of its own, outside the
/// writing connection's lock.
///
/// SQLite's automatic checkpoint runs inside a commit that finds the log at 1,000 pages or
/// more, so with one writing connection every other request thread would wait for the
/// checkpoint's writes and syncs to the database file. Instead, the thread whose commit found
/// the log that large checkpoints once it has let go of the writing connection, and the
/// others go on writing, as they would with a connection each.
final class SQLiteCheckpointer: @unchecked Sendable {
    // @unchecked: `connection` is only used while `lock` is held.
    private let lock = Lock()
    private let connection: Database

    /// The log's size, in pages, from which a commit leads to a checkpoint: SQLite's default.
    static let logPagesThreshold: Int32 = 1000

    /// A checkpointer on `connection`, which must be able to write the file.
    init(connection: Database) {
        self.connection = connection
    }

    /// Checkpoints unless another thread is checkpointing already, in two passive passes. The
    /// first copies most of the log while writers go on committing. The second runs inside
    /// `holdingWriter`, which keeps this process's writers out, and copies what they committed
    /// meanwhile. SQLite starts the log over from its beginning only at a write that finds it
    /// wholly copied and no reader still in it, so without the second pass a busy server's log
    /// would grow for as long as the writes go on.
    func checkpoint(holdingWriter: (() -> Void) -> Void) {
        lock.withLockIfAvailable {
            followFileAtPath()
            connection.checkpointPassively()
            holdingWriter { connection.checkpointPassively() }
        }
    }

    /// Opens the file at the path again when the one this connection opened was replaced,
    /// which the writing connection follows (`SQLiteCartRepository.changeToken()`): its
    /// commits then go to the new file's log, which checkpoints of the old one never copy.
    /// One `stat` per checkpoint. A failure is left for the next checkpoint, as a
    /// checkpoint's own is.
    private func followFileAtPath() {
        guard connection.hasMoved else { return }
        try? connection.reopen()
        try? connection.openLog()
    }
}
