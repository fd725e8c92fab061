@testable import CartCLI
import Foundation
import Testing

@Suite("cart db copy")
struct DatabaseCopyTests {
    @Test("--from names the source instead of --db; the copy goes into a new file and says what it copied")
    func fromAnotherStore() throws {
        let sandbox = try CartSandbox()
        let shop = sandbox.path("shop.sqlite3")
        try sandbox.ok("--db", shop, "products", "add", "tea", "--name", "Tea", "--price", "2.50")
        try sandbox.ok("--db", shop, "add", "tea", "2")
        try sandbox.ok("--db", shop, "checkout")
        let copy = sandbox.path("copy.sqlite3")
        let result = try sandbox.ok("db", "copy", "--from", shop, "--to", copy)
        #expect(result.stdout == "Copied 1 product, 1 cart and 1 order from '\(shop)' to '\(copy)'.\n")
        #expect(try sandbox.ok("--db", copy, "orders", "show", "1").stdout.contains("Tea"))
        // --db's own store was neither read nor created.
        #expect(try sandbox.ok("db", "status").stdout.hasPrefix("No store at"))
    }

    @Test("a copy into memory: says what it copied and that nothing of it is kept; a file copy has no such note")
    func intoMemory() throws {
        let sandbox = try CartSandbox()
        try sandbox.ok("products", "add", "tea", "--name", "Tea", "--price", "2.50")
        let result = try sandbox.ok("db", "copy", "--to", "memory:")
        #expect(result.stdout == "Copied 1 product, 0 carts and 0 orders from '\(sandbox.database)' to 'memory:'.\n")
        #expect(result.stderr == "Note: the in-memory store keeps nothing; the copy is lost when this command ends.\n")
        let json = try sandbox.ok("db", "copy", "--to", "memory:", "--json")
        #expect(json.stdout.contains(#""to":"memory:""#))
        #expect(json.stderr.hasPrefix("Note: the in-memory store keeps nothing"))
        #expect(try sandbox.ok("db", "copy", "--to", sandbox.path("copy.sqlite3")).stderr.isEmpty)
    }

    @Test("a copy into an empty store made with settings of its own says that the source's replaced them")
    func replacedSettings() throws {
        let sandbox = try CartSandbox()
        let shop = sandbox.path("shop.sqlite3")
        try sandbox.ok("--db", shop, "products", "add", "tea", "--name", "Tea", "--price", "2.50")
        let euro = sandbox.path("euro.sqlite3")
        try sandbox.ok("--db", euro, "db", "init", "--currency", "EUR", "--max-lines", "5")
        let result = try sandbox.ok("db", "copy", "--from", shop, "--to", euro)
        #expect(
            result.stdout
                == "Copied 1 product, 0 carts and 0 orders from '\(shop)' to '\(euro)'.\n"
                + "The target's settings (EUR, 99 units per line, 5 lines per cart) were replaced by the source's "
                + "(USD, 99 units per line, 100 lines per cart).\n")
        #expect(try sandbox.ok("--db", euro, "db", "status").stdout.contains("USD"))
    }

    @Test("a copy into the store it reads, from a store that does not exist, or into a non-empty one is refused")
    func refusals() throws {
        let sandbox = try CartSandbox()
        try sandbox.ok("products", "add", "tea", "--name", "Tea", "--price", "2.50")
        let itself = try sandbox.run("db", "copy", "--to", sandbox.database)
        #expect(itself.status == 64)
        #expect(itself.errorLines == ["Error: '--to' names the store copied from; give the location of another store."])
        // Also under another spelling of its path, or through a link.
        let link = sandbox.path("link.sqlite3")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: sandbox.database)
        let file = URL(fileURLWithPath: sandbox.database)
        let dotted = file.deletingLastPathComponent().path + "/./" + file.lastPathComponent
        for spelling in [link, dotted] {
            #expect(try sandbox.run("db", "copy", "--to", spelling).status == 64, "\(spelling)")
        }

        let missing = sandbox.path("missing.sqlite3")
        let none = try sandbox.run("db", "copy", "--from", missing, "--to", sandbox.path("new.sqlite3"))
        #expect(none.status == 1)
        #expect(none.errorLines == ["Error: No store at '\(missing)' yet; there is nothing to copy."])

        let other = sandbox.path("other.sqlite3")
        try sandbox.ok("--db", other, "products", "add", "cake", "--name", "Cake", "--price", "3")
        try sandbox.ok("--db", other, "add", "cake")
        let full = try sandbox.run("db", "copy", "--to", other)
        #expect(full.status == 1)
        #expect(
            full.errorLines == [
                "Error: '\(other)' is not empty (it holds 1 product, 1 cart and 0 orders); a store is copied only into "
                    + "an empty one: give a file that does not exist yet, or an empty database."
            ])
        #expect(!(try sandbox.ok("--db", other, "products").stdout.contains("Tea")))
    }

    @Test("the progress line shows on a terminal once its interval has passed, and is cleared at the end")
    func progressOnATerminal() {
        let terminal = CapturedOutput(isTerminal: true)
        let progress = ProgressLine(on: terminal, interval: .zero)
        progress.update { "Copying: 1 of 2 products" }
        progress.update { "Copying: 2 of 2 products" }
        progress.finish()
        progress.finish()
        #expect(terminal.text == "\rCopying: 1 of 2 products\u{1B}[K\rCopying: 2 of 2 products\u{1B}[K\r\u{1B}[K")

        let slow = CapturedOutput(isTerminal: true)
        let early = ProgressLine(on: slow, interval: .seconds(60))
        early.update { "Copying" }
        early.finish()
        #expect(slow.text.isEmpty, "work that ends before the interval shows nothing")
    }

    @Test("the progress line writes nothing when its output is not a terminal")
    func noProgressInAPipe() {
        let pipe = CapturedOutput(isTerminal: false)
        let progress = ProgressLine(on: pipe, interval: .zero)
        progress.update { "Copying" }
        progress.finish()
        #expect(pipe.text.isEmpty)
    }
}
