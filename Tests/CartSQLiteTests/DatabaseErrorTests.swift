import CSQLite
import CartCore
import CartTestSupport
import CartSQLite
import Foundation
import Testing

@Suite("SQLite errors in words")
struct DatabaseErrorTests {
    @Test(
        "each error people meet says what happened first and keeps SQLite's code, message and SQL after it",
        arguments: [
            (SQLITE_FULL, "database or disk is full", "the disk is full"),
            (SQLITE_IOERR, "disk I/O error", "reading or writing the file failed (an I/O error)"),
            (SQLITE_IOERR | 3 << 8, "disk I/O error", "writing the file failed (an I/O error)"),
            (SQLITE_IOERR | 4 << 8, "disk I/O error", "flushing the file to disk failed"),
            (SQLITE_IOERR | 2 << 8, "disk I/O error", "the file ended where SQLite expected more of it"),
            (SQLITE_CANTOPEN, "unable to open database file", "the file cannot be opened"),
            (SQLITE_PERM, "access permission denied", "the operating system denied access to the file"),
            (SQLITE_READONLY, "attempt to write a readonly database", "the database cannot be written by this process"),
            (
                SQLITE_READONLY | 3 << 8, "attempt to write a readonly database",
                "the file has a hot journal from a crash; a process that can write the file and its directory must open it "
                    + "once to recover it"
            ),
            (
                SQLITE_READONLY | 6 << 8, "attempt to write a readonly database",
                "its directory is not writable, so SQLite cannot create the journal files it needs beside it"
            ),
            (SQLITE_BUSY, "database is locked", "the database is locked by another connection"),
            (SQLITE_LOCKED, "database table is locked", "a table is locked by another statement of the same connection"),
            (SQLITE_CORRUPT, "database disk image is malformed", "the database file is damaged"),
            (SQLITE_NOTADB, "file is not a database", "the file is not a SQLite database"),
            (SQLITE_NOMEM, "out of memory", "SQLite ran out of memory"),
            (SQLITE_TOOBIG, "string or blob too big", "a value is larger than SQLite allows"),
            (SQLITE_CONSTRAINT | 1 << 8, "CHECK constraint failed: quantity > 0", "a value would break a CHECK constraint of the schema"),
            (SQLITE_CONSTRAINT | 3 << 8, "FOREIGN KEY constraint failed", "a row would reference a row that does not exist"),
            (
                SQLITE_PROTOCOL, "locking protocol",
                "SQLite's locking protocol failed: another process kept changing the files beside the database"
            ),
        ] as [(Int32, String, String)])
    func inWords(_ code: Int32, _ message: String, _ words: String) {
        let error = DatabaseError(extendedResultCode: code, message: message, sql: "COMMIT")
        #expect(error.description == "\(words) (SQLite error \(code & 0xFF): \(message) - while executing COMMIT)")
    }

    @Test("SQLite's generic error keeps its own message, which already says what happened")
    func genericError() {
        let error = DatabaseError(extendedResultCode: SQLITE_ERROR, message: "no such table: carts", sql: "SELECT 1")
        #expect(error.description == "SQLite error 1: no such table: carts - while executing SELECT 1")
    }

    @Test(
        "a full disk: one clear error, nothing half-written, reads still work, writes work once there is room",
        .enabled(if: getuid() == 0, "mounting a small tmpfs needs root"))
    func diskFull() throws {
        try onTinyDisk { mountPoint in
            let path = mountPoint + "/cart.sqlite3"
            let service = CartService(repository: try SQLiteCartRepository(path: path), clock: fixedClock)
            try service.seedCatalog(count: 3)
            try service.add("sku-0", quantity: 2, to: "alice")
            let filler = mountPoint + "/filler"
            _ = try runProcess("/usr/bin/dd", ["if=/dev/zero", "of=\(filler)", "bs=4096"])
            let cart = try service.cart("alice")
            let big = (0..<5_000).map {
                Product(sku: "big-\($0)", name: "A product with a long name \($0)", price: Money(minorUnits: 1, currency: .usd))
            }
            #expect {
                try service.importProducts(big)
            } throws: { error in
                let text = String(describing: error)
                return (error as? DatabaseError)?.resultCode == SQLITE_FULL && ErrorCategory(of: error) == .storageFailure
                    && text.hasPrefix("the disk is full (SQLite error 13: database or disk is full") && !text.contains("\n")
            }
            #expect(try service.products().map(\.sku) == ["sku-0", "sku-1", "sku-2"])
            #expect(try service.cart("alice") == cart)
            try FileManager.default.removeItem(atPath: filler)
            try service.add("sku-1", to: "alice")
            #expect(try service.cart("alice").totalItems == 3)
            #expect(try SQLiteCartRepository(path: path).check() == [])
        }
    }

    /// Runs `body` with a directory on a tmpfs of 512 KB, mounted for it.
    private func onTinyDisk(_ body: (String) throws -> Void) throws {
        let directory = try TemporaryDirectory()
        let mountPoint = directory.path("tiny")
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        let mounted = try runProcess("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=512k", "tmpfs", mountPoint])
        try #require(mounted.status == 0, "\(mounted)")
        defer { _ = try? runProcess("/usr/bin/umount", [mountPoint]) }
        try body(mountPoint)
    }

    @Test(
        "a full disk where no -shm file exists yet: opening the store says the disk is full",
        .enabled(if: getuid() == 0, "mounting a small tmpfs needs root"))
    func diskFullBeforeSharedMemory() throws {
        try onTinyDisk { mountPoint in
            let path = mountPoint + "/cart.sqlite3"
            do {
                let service = CartService(repository: try SQLiteCartRepository(path: path), clock: fixedClock)
                try service.seedCatalog(count: 3)
            }
            // Closed: the -shm file went with the last connection.
            #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
            _ = try runProcess("/usr/bin/dd", ["if=/dev/zero", "of=\(mountPoint)/filler", "bs=4096"])
            #expect {
                _ = try CartService(repository: try SQLiteCartRepository(path: path)).products()
            } throws: { error in
                let text = String(describing: error)
                return ErrorCategory(of: error) == .storageFailure && text.contains("failed: no space left on device (SQLite error 10:")
            }
        }
    }
}
