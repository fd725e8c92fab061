import Foundation
import Testing

/// `cart watch` as people and programs use it: another process changes the cart, the watcher
/// prints it. Timeouts are generous and only bound a failing test; nothing here measures speed.
@Suite("cart binary: watch")
struct EndToEndWatchTests {
    /// A sandbox with apple ($1.29) in the catalog.
    func stocked() throws -> CartSandbox {
        let sandbox = try CartSandbox()
        try sandbox.ok("products", "add", "apple", "--name", "Apple", "--price", "1.29")
        return sandbox
    }

    @Test("watch --json prints one 'show --json' line per change from other processes and exits 0 on SIGINT")
    func jsonFeed() throws {
        let sandbox = try stocked()
        let watch = try RunningCart(["watch", "--json", "--interval", "50"], in: sandbox)
        defer { watch.stop() }
        let initial = watch.nextLine()
        #expect(initial.map { $0 + "\n" } == (try sandbox.ok("show", "--json").stdout))

        try sandbox.ok("add", "apple")
        let first = watch.nextLine()
        let shownFirst = try sandbox.ok("show", "--json").stdout
        try sandbox.ok("--cart", "bob", "add", "apple")
        try sandbox.ok("add", "apple", "2")
        let second = watch.nextLine()
        let shownSecond = try sandbox.ok("show", "--json").stdout

        #expect(first.map { $0 + "\n" } == shownFirst)
        #expect(first?.hasSuffix(#""version":1}"#) == true && first?.contains(#""quantity":1,"#) == true)
        #expect(second.map { $0 + "\n" } == shownSecond)
        #expect(second?.hasSuffix(#""version":2}"#) == true && second?.contains(#""quantity":3,"#) == true)
        watch.send(SIGINT)
        #expect(watch.exitStatus() == 0)
        #expect(watch.nextLine(within: 0) == nil, "bob's cart or the interruption printed something")
    }

    @Test("watch prints the 'show' table again after each change and exits 0 on SIGTERM")
    func tableForPeople() throws {
        let sandbox = try stocked()
        let watch = try RunningCart(["watch", "--interval", "50"], in: sandbox)
        defer { watch.stop() }
        #expect(watch.nextLine() == "Cart 'default' is empty.")
        try sandbox.ok("add", "apple", "2")
        #expect(
            watch.nextLines(5) == [
                "", "Cart 'default', version 1", "SKU    NAME   QTY   UNIT  TOTAL", "apple  Apple    2  $1.29  $2.58",
                "2 items, subtotal $2.58",
            ])
        watch.send(SIGTERM)
        #expect(watch.exitStatus() == 0)
    }

    /// The file's text once it is `expected`, or as it is after 30 s: what a process writes
    /// there reaches it a moment later.
    private func contents(of path: String, once expected: String) throws -> String {
        let deadline = ContinuousClock.now + .seconds(30)
        while try String(contentsOfFile: path, encoding: .utf8) != expected && ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    @Test("a price another client stored out of range is said on stderr, and the cart shown again once mended")
    func damagedValueMended() throws {
        let sandbox = try stocked()
        try sandbox.ok("add", "apple")
        let errors = sandbox.path("watch.err")
        let watch = try RunningCart(["watch", "--json", "--interval", "50"], in: sandbox, errorLog: errors)
        defer { watch.stop() }
        let initial = watch.nextLine()
        #expect(initial.map { $0 + "\n" } == (try sandbox.ok("show", "--json").stdout))
        _ = try sandbox.sqlite3("PRAGMA ignore_check_constraints = ON; UPDATE products SET price = -5 WHERE sku = 'apple'")
        // The words of `cart show`'s error line, which names the store, the value and `db check`.
        let shown = try #require(try sandbox.run("show").errorLines.first)
        let waiting = "Waiting for the cart to be mended: \(shown.dropFirst("Error: ".count))\n"
        #expect(try contents(of: errors, once: waiting) == waiting)
        // Another change while the value is as it was: read again, and not said again.
        try sandbox.ok("products", "add", "pear", "--name", "Pear", "--price", "2.00")
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try String(contentsOfFile: errors, encoding: .utf8) == waiting)
        #expect(watch.nextLine(within: 0) == nil, "nothing is printed for the cart while it cannot be read")
        // Mended to the price it had: the cart is the one shown before, and is shown again.
        try sandbox.ok("products", "update", "apple", "--price", "1.29")
        #expect(watch.nextLine() == initial)
        #expect(try String(contentsOfFile: errors, encoding: .utf8) == waiting + "The cart can be read again.\n")
        watch.send(SIGINT)
        #expect(watch.exitStatus() == 0)
    }

    @Test("a cart that cannot be read when watch starts is waited for, and shown once mended")
    func damagedFromTheStart() throws {
        let sandbox = try stocked()
        try sandbox.ok("add", "apple")
        let mended = try sandbox.ok("show", "--json").stdout
        _ = try sandbox.sqlite3("PRAGMA ignore_check_constraints = ON; UPDATE products SET price = -5 WHERE sku = 'apple'")
        let shown = try #require(try sandbox.run("show").errorLines.first)
        let waiting = "Waiting for the cart to be mended: \(shown.dropFirst("Error: ".count))\n"
        let errors = sandbox.path("watch.err")
        let watch = try RunningCart(["watch", "--json", "--interval", "50"], in: sandbox, errorLog: errors)
        defer { watch.stop() }
        #expect(try contents(of: errors, once: waiting) == waiting)
        try sandbox.ok("products", "update", "apple", "--price", "1.29")
        #expect(watch.nextLine().map { $0 + "\n" } == mended)
        #expect(try String(contentsOfFile: errors, encoding: .utf8) == waiting + "The cart can be read again.\n")
        watch.send(SIGTERM)
        #expect(watch.exitStatus() == 0)
    }

    @Test("watch ends soon after the reader of its output has gone (cart watch | head -1), silently")
    func readerGone() throws {
        let sandbox = try stocked()
        // No change comes after the first snapshot, and the interval is a minute: only the
        // closed pipe can end the watch within `timeout`'s 30 s (status 124 if it does not).
        let result = try sandbox.shell(
            #"{ timeout 30 "$0" watch --interval 60000; echo "watch exited $?" >&2; } | head -n 1"#)
        #expect(result.stdout == "Cart 'default' is empty.\n")
        #expect(
            result.stderr == "watch exited 1\n",
            "nothing on stderr, and 1, the status of every command whose reader went away")
    }

    @Test("an interval below 10 ms is a usage error")
    func intervalChecked() throws {
        let sandbox = try CartSandbox()
        let result = try sandbox.run("watch", "--interval", "5")
        #expect(result.status == 64)
        #expect(result.errorLines.count == 1)
    }
}

/// `cart watch` while its store file is replaced or deleted under it.
@Suite("cart binary: watch, the store file replaced or deleted")
struct EndToEndWatchReplacedTests {
    /// A sandbox with apple ($1.29) in the catalog, and a watcher of its cart that has shown it.
    private func watching() throws -> (CartSandbox, RunningCart, errors: String) {
        let sandbox = try CartSandbox()
        try sandbox.ok("products", "add", "apple", "--name", "Apple", "--price", "1.29")
        let errors = sandbox.path("watch.err")
        let watch = try RunningCart(["watch", "--interval", "50"], in: sandbox, errorLog: errors)
        #expect(watch.nextLine() == "Cart 'default' is empty.")
        return (sandbox, watch, errors)
    }

    /// Removes the store and the files beside it, as `rm cart.sqlite3*` does.
    private func removeStore(of sandbox: CartSandbox) {
        for suffix in ["", "-wal", "-shm"] { unlink(sandbox.database + suffix) }
    }

    @Test("a store moved into place is followed: watch shows its cart and the changes made to it")
    func followsReplacement() throws {
        let (sandbox, watch, _) = try watching()
        defer { watch.stop() }
        let backup = sandbox.path("backup.sqlite3")
        try sandbox.ok("--db", backup, "products", "add", "apple", "--name", "Apple", "--price", "1.29")
        try sandbox.ok("--db", backup, "add", "apple", "3")
        // As one rename, with the old file's log gone first, so the new file never meets it.
        for suffix in ["-wal", "-shm"] { unlink(sandbox.database + suffix) }
        try #require(rename(backup, sandbox.database) == 0)
        #expect(watch.nextLines(5).joined(separator: "\n") == "\n" + (try sandbox.ok("show").stdout.dropLast()))
        #expect(try sandbox.ok("show").stdout.contains("apple  Apple    3  $1.29  $3.87"))
        try sandbox.ok("add", "apple")
        #expect(watch.nextLines(5).last == "4 items, subtotal $5.16")
        watch.send(SIGINT)
        #expect(watch.exitStatus() == 0)
    }

    @Test("a deleted store ends watch with one Error line and status 1, and nothing is created")
    func deletedStore() throws {
        let (sandbox, watch, errors) = try watching()
        defer { watch.stop() }
        removeStore(of: sandbox)
        #expect(watch.exitStatus() == 1)
        #expect(
            try String(contentsOfFile: errors, encoding: .utf8)
                == "Error: Cannot use '\(sandbox.database)': the file was deleted or moved away while it was open, "
                + "and nothing is at its path now.\n")
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
    }

    @Test("a store replaced by a file that is not one ends watch with one Error line and status 1")
    func replacedByNonStore() throws {
        let (sandbox, watch, errors) = try watching()
        defer { watch.stop() }
        let garbage = try sandbox.write("garbage", Array(repeating: 0x2A, count: 4096))
        removeStore(of: sandbox)
        try #require(rename(garbage, sandbox.database) == 0)
        #expect(watch.exitStatus() == 1)
        #expect(
            try String(contentsOfFile: errors, encoding: .utf8)
                == "Error: '\(sandbox.database)' cannot be read as a cart store: the file is not a SQLite database.\n")
    }

    @Test("a store written over in place ends watch with one Error line and status 1")
    func overwrittenInPlace() throws {
        let (sandbox, watch, errors) = try watching()
        defer { watch.stop() }
        let file = try #require(FileHandle(forWritingAtPath: sandbox.database))
        try file.truncate(atOffset: 0)
        try file.write(contentsOf: Data("not a database\n".utf8))
        try file.close()
        #expect(watch.exitStatus() == 1)
        #expect(try String(contentsOfFile: errors, encoding: .utf8).hasPrefix("Error: '\(sandbox.database)' cannot be read"))
    }
}
