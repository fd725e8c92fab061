import CartCore
import CartTestSupport
import CartSQLite
import Foundation
import Testing

/// A store file deleted, or replaced by another, while a repository has it open: the change
/// token follows the file now at the path when it is a store, and otherwise says why not.
@Suite("A store file replaced or deleted while open")
struct ReplacedFileTests {
    /// Moves a store holding `alice` with `sku-1` × 3 onto `path` as one rename, the way to
    /// replace a store that is open: the old file's `-wal` and `-shm` go first, so the new
    /// file never meets them.
    private func replaceStore(at path: String) throws {
        let elsewhere = try TemporaryDirectory()
        do {
            let (_, service) = try aliceFile(in: elsewhere, products: 2)
            try service.remove("sku-0", from: "alice")
            try service.add("sku-1", quantity: 3, to: "alice")
        }
        unlink(path + "-wal")
        unlink(path + "-shm")
        try #require(rename(elsewhere.path("cart.sqlite3"), path) == 0)
    }

    /// A repository and its service on a store in `directory` holding `alice` with `sku-0` × 1,
    /// whose change token was read once.
    private func openedStore(in directory: TemporaryDirectory, readers: Int = 0) throws
        -> (path: String, repository: SQLiteCartRepository, service: CartService)
    {
        let (path, _) = try aliceFile(in: directory)
        let repository = try SQLiteCartRepository(path: path, readers: readers)
        _ = try repository.changeToken()
        return (path, repository, CartService(repository: repository))
    }

    @Test("a store moved into place is followed: reads, writes and the token go to the new file")
    func replacedByStore() throws {
        let directory = try TemporaryDirectory()
        let (path, repository, service) = try openedStore(in: directory)
        let before = try repository.changeToken()
        #expect(try service.cart("alice").lines.map(\.sku) == ["sku-0"])

        try replaceStore(at: path)
        #expect(try repository.changeToken() != before)
        #expect(try service.cart("alice").lines.map(\.sku) == ["sku-1"])
        try service.add("sku-1", to: "alice")
        let other = CartService(repository: try SQLiteCartRepository(path: path))
        #expect(try other.cart("alice").totalItems == 4)
    }

    @Test("a store moved into place in rollback-journal mode is followed and switched to WAL, as opening it would")
    func replacedByRollbackJournalStore() throws {
        let directory = try TemporaryDirectory()
        let (path, repository, service) = try openedStore(in: directory, readers: 2)
        let elsewhere = try TemporaryDirectory()
        let (backup, _) = try aliceFile(in: elsewhere)
        try sqlite(backup, "PRAGMA journal_mode = DELETE")
        unlink(path + "-wal")
        unlink(path + "-shm")
        try #require(rename(backup, path) == 0)

        _ = try repository.changeToken()
        #expect(try rows(path, "PRAGMA journal_mode") == ["wal"])
        try service.add("sku-0", to: "alice")
        #expect(try service.cart("alice").totalItems == 2)
        #expect(try CartService(repository: try SQLiteCartRepository(path: path)).cart("alice").totalItems == 2)
    }

    @Test("a write after the file was deleted or replaced, before any poll, is refused or goes to the file at the path")
    func writeBeforePoll() throws {
        let directory = try TemporaryDirectory()
        let (path, _, service) = try openedStore(in: directory)
        try replaceStore(at: path)
        try service.add("sku-1", to: "alice")
        let other = CartService(repository: try SQLiteCartRepository(path: path))
        #expect(try other.cart("alice").totalItems == 4, "the write went to the file now at the path")

        for name in [path, path + "-wal", path + "-shm"] { unlink(name) }
        #expect {
            try service.add("sku-1", to: "alice")
        } throws: { error in
            ErrorCategory(of: error) == .storageFailure
        }
        #expect(!FileManager.default.fileExists(atPath: path), "nothing is created")
    }

    @Test("a server's read connections follow the replaced file too")
    func readersFollow() throws {
        let directory = try TemporaryDirectory()
        let (path, repository, service) = try openedStore(in: directory, readers: 2)
        #expect(try service.cart("alice").lines.map(\.sku) == ["sku-0"])

        try replaceStore(at: path)
        _ = try repository.changeToken()
        #expect(try service.cart("alice").lines.map(\.sku) == ["sku-1"])
    }

    @Test("a deleted file fails every poll and every write in one sentence, creates nothing, and a store put back is followed")
    func deletedThenPutBack() throws {
        let directory = try TemporaryDirectory()
        let (path, repository, service) = try openedStore(in: directory, readers: 1)
        for name in [path, path + "-wal", path + "-shm"] { unlink(name) }

        let gone = "the file was deleted or moved away while it was open, and nothing is at its path now"
        for _ in 0..<2 {
            #expect {
                _ = try repository.changeToken()
            } throws: { error in
                ErrorCategory(of: error) == .storageFailure && (error as? any CategorizedError)?.reason == gone
            }
        }
        #expect {
            try service.add("sku-0", to: "alice")
        } throws: { error in
            (error as? any CategorizedError)?.reason == gone
        }
        #expect(!FileManager.default.fileExists(atPath: path))

        try replaceStore(at: path)
        _ = try repository.changeToken()
        try service.add("sku-1", to: "alice")
        #expect(try service.cart("alice").totalItems == 4)
    }

    @Test("a file that is not a usable store fails every poll and write, saying what it is")
    func replacedByNonStore() throws {
        let directory = try TemporaryDirectory()
        let (path, repository, service) = try openedStore(in: directory)
        for name in [path, path + "-wal", path + "-shm"] { unlink(name) }

        try Data(repeating: 0x2A, count: 4096).write(to: URL(fileURLWithPath: path))
        for _ in 0..<2 {
            #expect {
                _ = try repository.changeToken()
            } throws: { error in
                ErrorCategory(of: error) == .damagedStore
            }
        }
        #expect(throws: DatabaseError.self) { try service.add("sku-0", to: "alice") }

        try Data().write(to: URL(fileURLWithPath: path))
        #expect(throws: StoreLocationError.noStore(location: path)) { _ = try repository.changeToken() }
        #expect(throws: StoreLocationError.noStore(location: path)) { try service.add("sku-0", to: "alice") }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).isEmpty)

        try sqlite(path, "CREATE TABLE notes (body TEXT)")
        #expect(throws: MigrationError.foreignDatabase) { _ = try repository.changeToken() }
    }

    @Test("a file written over in place with something else fails the next poll and writes")
    func overwrittenInPlace() throws {
        let directory = try TemporaryDirectory()
        let (path, repository, service) = try openedStore(in: directory)

        let file = try #require(FileHandle(forWritingAtPath: path))
        try file.truncate(atOffset: 0)
        try file.write(contentsOf: Data("not a database\n".utf8))
        try file.close()
        #expect {
            _ = try repository.changeToken()
        } throws: { error in
            ErrorCategory(of: error) == .damagedStore
        }
        #expect(throws: DatabaseError.self) { try service.add("sku-0", to: "alice") }
    }
}
