import CartCore
import CartTestSupport
import CartSQLite
import Foundation
import Testing

@Suite("A database file with two names")
struct HardLinkTests {
    @Test("a file reachable through a second hard link is refused by either name in one line, and left alone")
    func refusedByEitherName() throws {
        let directory = try TemporaryDirectory()
        let (path, _) = try aliceFile(in: directory)
        let other = directory.path("other-name.sqlite3")
        let linked = try runProcess("/usr/bin/ln", [path, other])
        try #require(linked.status == 0, "\(linked)")
        let before = try contents(of: path)
        for name in [path, other] {
            #expect {
                _ = try SQLiteCartRepository(path: name)
            } throws: { error in
                let text = String(describing: error)
                return error is StoreLocationError && ErrorCategory(of: error) == .storageFailure
                    && text.hasPrefix("'\(name)' cannot hold a store: it has 2 names (hard links)")
                    && !text.contains("\n")
            }
            #expect(throws: StoreLocationError.self) {
                _ = try SQLiteCartRepository.backend.open(name, options: StoreOptions())
            }
        }
        #expect(try contents(of: path) == before)
        try FileManager.default.removeItem(atPath: other)
        #expect(try CartService(repository: try SQLiteCartRepository(path: path)).cart("alice").totalItems == 1)
    }

    @Test("a directory or an empty path given to the initialiser is refused for what it is")
    func directoryAndEmptyPath() throws {
        let directory = try TemporaryDirectory()
        for (path, reason) in [(directory.path, "it is a directory"), (directory.path + "/", "it is a directory"), ("", "the path is empty")] {
            #expect {
                _ = try SQLiteCartRepository(path: path)
            } throws: { error in
                String(describing: error) == "'\(path)' cannot hold a store: \(reason)."
            }
        }
    }

    @Test("a symbolic link is one file with one name: SQLite follows it, so it opens")
    func symbolicLinkOpens() throws {
        let directory = try TemporaryDirectory()
        let (path, _) = try aliceFile(in: directory)
        let link = directory.path("link.sqlite3")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        #expect(try CartService(repository: try SQLiteCartRepository(path: link)).cart("alice").totalItems == 1)
    }
}
