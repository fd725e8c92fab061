import CartTestSupport
import Foundation
import Testing

@testable import CartSQLite

/// Reading a database file's header while connections of this process hold locks on it.
@Suite("A file's header, read beside SQLite's locks")
struct HeaderReadTests {
    /// POSIX record locks belong to the process, and closing any descriptor of a file drops
    /// them all, so a header read that opened and closed the file itself would hand the file to
    /// another process mid-read.
    @Test("describing a file leaves the read lock another connection of this process holds")
    func describingKeepsLocks() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("journal.sqlite3")
        // A rollback-journal file, whose readers hold a read lock on the file itself.
        let writer = try Database(path: path, busyTimeout: .zero)
        try writer.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1)")
        let reader = try Database(path: path, busyTimeout: .zero)
        try reader.execute("BEGIN; SELECT x FROM t")

        let files = Database.FileState(path, openedBy: writer.handle)
        #expect(files.format == 1)
        #expect(!writer.isOverwritten)
        let other = try runProcess("/usr/bin/sqlite3", ["-cmd", ".timeout 0", path, "BEGIN EXCLUSIVE; COMMIT;"])
        #expect(other.status != 0 && other.stderr.contains("locked"), "another process took the file: \(other)")

        try reader.execute("COMMIT")
        let free = try runProcess("/usr/bin/sqlite3", ["-cmd", ".timeout 0", path, "BEGIN EXCLUSIVE; COMMIT;"])
        #expect(free.status == 0, "\(free)")
    }

    @Test("a file that is not a SQLite database has no header")
    func noHeader() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("cart.sqlite3")
        let database = try Database(path: path, busyTimeout: .zero)
        #expect(Database.header(of: database.handle) == nil)
        try database.execute("CREATE TABLE t (x)")
        #expect(Database.header(of: database.handle)?[19] == 1)
    }
}
