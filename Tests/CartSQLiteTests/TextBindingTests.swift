@testable import CartSQLite
import Testing

@Suite("SQLite statements: text goes in and comes out byte for byte")
struct TextBindingTests {
    @Test("empty text, a lone NUL, NULs at either end or inside, and non-ASCII text round-trip through one statement")
    func textRoundTrips() throws {
        let database = try Database(path: ":memory:", busyTimeout: .seconds(1))
        let echo = try database.prepare("SELECT ?1, length(CAST(?1 AS BLOB))")
        // Longest first, so each later value reuses the statement's text buffer.
        let values = ["a long value that fills the buffer", "a\u{0}b", "\u{0}a", "a\u{0}", "\u{0}", "", "€", "plain"]
        for value in values {
            try echo.bind(value, at: 1)
            #expect(try echo.step())
            #expect(try echo.string(at: 0) == value, "\(Array(value.utf8))")
            #expect(echo.int64(at: 1) == Int64(value.utf8.count), "\(Array(value.utf8))")
            echo.reset()
        }
    }
}
