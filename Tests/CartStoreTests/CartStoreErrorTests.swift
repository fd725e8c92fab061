import CartCore
import CartSQLite
import CartStore
import CartTestSupport
import Foundation
import Testing

@Suite("CartStoreError for an app that cannot open its store")
struct CartStoreErrorTests {
    @Test("a file that is not a store reads as a sentence for people; the backend's words stay in the detail")
    func openFailure() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("notes.sqlite3")
        try Data("these are not the droids you are looking for\n".utf8).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: (any Error).self) { _ = try SQLiteCartRepository(path: path) }
        let classified = CartStoreError(try #require(error))
        #expect(classified.category == .damagedStore)
        #expect(
            classified.description == "The store cannot be read as a cart store: the file is not a SQLite database.",
            "\(classified)")
        guard case .storage(_, _, let detail) = classified else { Issue.record("\(classified)"); return }
        #expect(detail.contains("SQLite error 26"), "\(detail)")
    }
}
