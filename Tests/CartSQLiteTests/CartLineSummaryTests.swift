import CartCore
import CartSQLite
import CartTestSupport
import Foundation
import Testing

/// The `carts` row keeps `line_count` and `next_position`, the line summary `CartService`
/// writes with each header (`CartHeader.lineCount`, `.nextLinePosition`), so that adding a line
/// needs no scan of the cart's lines. These check that the summary matches the lines after
/// every kind of change, after units that roll back, and after another client's writes.
@Suite("Cart line summary in the carts row")
struct CartLineSummaryTests {
    /// A service over a fresh file with products `sku-0…sku-5`, stock 10.
    private func makeService(in directory: TemporaryDirectory) throws -> (CartService, String) {
        let path = directory.path("cart.sqlite3")
        let service = CartService(repository: try SQLiteCartRepository(path: path), clock: fixedClock)
        try service.seedCatalog(count: 6, stock: 10)
        return (service, path)
    }

    /// The carts whose summary does not match their lines: a line count other than the number
    /// of lines, or a next position not above every line's position.
    private func mismatches(_ path: String) throws -> [String] {
        try rows(
            path,
            """
            SELECT c.id || ': ' || c.line_count || ' lines, next ' || c.next_position FROM carts AS c
            WHERE c.line_count <> (SELECT count(*) FROM cart_lines AS l WHERE l.cart_id = c.id)
               OR c.next_position <= (SELECT coalesce(max(position), 0) FROM cart_lines AS l WHERE l.cart_id = c.id)
            """)
    }

    @Test("every mutation keeps line_count and next_position in step with the lines")
    func everyMutationKeepsTheSummary() throws {
        let directory = try TemporaryDirectory()
        let (service, path) = try makeService(in: directory)
        let steps: [(String, () throws -> Void)] = [
            ("add a new line", { try service.add("sku-0", to: "alice") }),
            ("add to a line", { try service.add("sku-0", quantity: 2, to: "alice") }),
            ("add more lines", { try service.add("sku-1", to: "alice"); try service.add("sku-2", to: "alice") }),
            ("remove part of a line", { try service.remove("sku-0", quantity: 1, from: "alice") }),
            ("remove a whole line", { try service.remove("sku-1", quantity: 5, from: "alice") }),
            ("set a new line", { try service.setQuantity("sku-3", to: 2, in: "alice") }),
            ("set a quantity", { try service.setQuantity("sku-3", to: 4, in: "alice") }),
            ("set to zero", { try service.setQuantity("sku-3", to: 0, in: "alice") }),
            ("delete a line", { try service.deleteLine("sku-2", from: "alice") }),
            ("clear", { try service.clear("alice") }),
            ("add after clear", { try service.add("sku-4", to: "alice"); try service.add("sku-5", to: "alice") }),
            ("fill bob", { try service.add("sku-4", to: "bob"); try service.add("sku-0", to: "bob") }),
            ("merge", { try service.merge(from: "bob", into: "alice") }),
            ("checkout", { _ = try service.checkout("alice") }),
            ("add after checkout", { try service.add("sku-1", to: "alice"); try service.add("sku-2", to: "carol") }),
            ("prune", { try service.prune(olderThan: fixedClock().addingTimeInterval(1)) }),
            ("add after prune", { try service.add("sku-3", to: "alice") }),
        ]
        for (name, step) in steps {
            try step()
            #expect(try mismatches(path) == [], "after \(name)")
        }
        #expect(try service.cart("alice").lines.map(\.sku) == ["sku-3"])
    }

    @Test("lines keep the order they were first added in across removals and merges")
    func orderSurvivesRemovals() throws {
        let directory = try TemporaryDirectory()
        let (service, path) = try makeService(in: directory)
        for sku in ["sku-2", "sku-0", "sku-1"] { try service.add(sku, to: "alice") }
        try service.deleteLine("sku-1", from: "alice")
        try service.add("sku-3", to: "alice")
        try service.add("sku-1", to: "bob")
        try service.add("sku-0", to: "bob")
        try service.merge(from: "bob", into: "alice")
        #expect(try service.cart("alice").lines.map(\.sku) == ["sku-2", "sku-0", "sku-3", "sku-1"])
        #expect(try mismatches(path) == [])
    }

    @Test("a unit that fails leaves the summary as it was")
    func rollbackKeepsTheSummary() throws {
        struct Abort: Error {}
        let directory = try TemporaryDirectory()
        let (service, path) = try makeService(in: directory)
        try service.add("sku-0", to: "alice")
        let before = try rows(path, "SELECT line_count || '/' || next_position FROM carts WHERE id = 'alice'")
        #expect(throws: Abort.self) {
            try service.repository.write { storage in
                try storage.insertCartLine(cartID: "alice", sku: "sku-1", quantity: 1, position: 2)
                try storage.saveCartHeader(
                    CartHeader(id: "alice", version: 2, updatedAt: fixedClock(), lineCount: 2, nextLinePosition: 3),
                    previousVersion: 1)
                throw Abort()
            }
        }
        try service.updateSettings(maxLinesPerCart: 1)
        #expect(throws: CartError.lineCountCapExceeded(cart: "alice", cap: 1)) { try service.add("sku-2", to: "alice") }
        #expect(try rows(path, "SELECT line_count || '/' || next_position FROM carts WHERE id = 'alice'") == before)
        #expect(try mismatches(path) == [])
    }

    @Test("clearing deletes lines another client wrote behind the cart's back, and only its own")
    func clearTakesForeignLines() throws {
        let directory = try TemporaryDirectory()
        let (service, path) = try makeService(in: directory)
        for sku in ["sku-0", "sku-1"] {
            try service.add(sku, to: "alice")
            try service.add(sku, to: "bob")
        }
        try sqlite(path, "INSERT INTO cart_lines (cart_id, sku, quantity, position) VALUES ('alice', 'sku-2', 1, 9)")
        try service.clear("alice")
        #expect(try rows(path, "SELECT count(*) FROM cart_lines WHERE cart_id = 'alice'") == ["0"])
        #expect(try service.cart("bob").lines.map(\.sku) == ["sku-0", "sku-1"])
        #expect(try mismatches(path) == [])
    }

    @Test("the per-cart line cap counts the stored summary")
    func capUsesTheSummary() throws {
        let directory = try TemporaryDirectory()
        let (service, _) = try makeService(in: directory)
        try service.updateSettings(maxLinesPerCart: 2)
        try service.add("sku-0", to: "alice")
        try service.add("sku-1", to: "alice")
        #expect(throws: CartError.lineCountCapExceeded(cart: "alice", cap: 2)) { try service.add("sku-2", to: "alice") }
        try service.add("sku-1", to: "alice")
        try service.remove("sku-0", from: "alice")
        try service.add("sku-2", to: "alice")
        #expect(try service.cart("alice").lines.map(\.sku) == ["sku-1", "sku-2"])
    }
}
