import CartCore

/// Checkpoints a server repository's write-ahead log on a connection of its own, outside the
/// writing connection's lock.
///
/// SQLite's automatic checkpoint runs inside the commit that takes the log past 1,000 pages,
/// so with one writing connection every other request thread would wait for the checkpoint's
/// writes and syncs to the database file. Instead, the thread whose commit took the log past
/// that size checkpoints once it has let go of the writing connection, and the others go on
/// writing, as they would with a connection each.
final class SQLiteCheckpointer: @unchecked Sendable {
    // @unchecked: `connection` is only touched while `lock` is held.
    private let lock = Lock()
    private let open: () throws -> Database
    private var connection: Database?

    /// The log's size, in pages, from which a commit leads to a checkpoint: SQLite's default.
    static let logPagesThreshold: Int32 = 1000

    /// A checkpointer whose connection `open` opens on first use.
    init(open: @escaping () throws -> Database) {
        self.open = open
    }

    /// Checkpoints unless another thread is checkpointing already, in two passive passes. The
    /// first copies most of the log while writers go on committing. The second runs inside
    /// `holdingWriter`, which keeps this process's writers out, and copies what they committed
    /// meanwhile: SQLite starts the log over from its beginning only at a write that finds it
    /// wholly copied, so without the second pass a busy server's log would grow for as long
    /// as the writes go on. A connection that cannot be opened is tried again next time, as a
    /// checkpoint that fails is.
    func checkpoint(holdingWriter: (() -> Void) throws -> Void) {
        lock.withLockIfAvailable {
            if connection == nil { connection = try? open() }
            guard let connection else { return }
            connection.checkpointPassively()
            try? holdingWriter { connection.checkpointPassively() }
        }
    }
}
