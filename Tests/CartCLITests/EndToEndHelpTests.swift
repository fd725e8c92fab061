import Foundation
import Testing

@testable import CartCLI

@Suite("cart binary: help, version and exit codes")
struct EndToEndHelpTests {
    /// Every command path in the tree, such as `["products", "add"]`.
    static let commandPaths: [[String]] = {
        var paths: [[String]] = [[]]
        func visit(_ spec: CommandSpec, _ path: [String]) {
            for child in spec.subcommands {
                paths.append(path + [child.name])
                visit(child, path + [child.name])
            }
        }
        visit(CommandTree.root, [])
        return paths
    }()

    @Test("every command's --help and help <command> print the generated help and exit 0", arguments: commandPaths)
    func help(path: [String]) throws {
        let sandbox = try CartSandbox()
        var command = ResolvedCommand(ancestors: [], spec: CommandTree.root)
        for word in path {
            let child = try #require(command.spec.subcommand(named: word))
            command = command.appending(child)
        }
        let expected = HelpFormatter.help(for: command)
        let flag = try sandbox.run(path + ["--help"])
        #expect(flag.status == 0 && flag.stderr.isEmpty)
        #expect(flag.stdout == expected)
        #expect(try sandbox.run(["help"] + path).stdout == expected)
        #expect(expected.hasPrefix("OVERVIEW: ") && expected.contains("\nUSAGE: cart"))
        for line in expected.split(separator: "\n") {
            #expect(line.count <= 80, "\(path): \(line)")
        }
        #expect(!FileManager.default.fileExists(atPath: sandbox.database), "help must not create the database")
    }

    @Test("help follows swift-argument-parser's sections")
    func sections() throws {
        let sandbox = try CartSandbox()
        let root = try sandbox.ok("--help").stdout
        for section in ["OVERVIEW:", "USAGE: cart <subcommand> [<options>]", "OPTIONS:", "SUBCOMMANDS:"] {
            #expect(root.contains(section))
        }
        #expect(root.contains("  --db <location>         The store: a SQLite file path"))
        let add = try sandbox.ok("help", "add").stdout
        #expect(
            add.hasPrefix(
                "OVERVIEW: Add units of a product to the cart.\n\nUSAGE: cart add <sku> [<quantity>] [--if-version <n>]\n"
            ))
        #expect(add.contains("\nARGUMENTS:\n  <sku>                   The product's SKU.\n"))
        #expect(add.contains("\nOPTIONS:\n  --if-version <n>        Only change the cart"))
        #expect(add.contains("\nGLOBAL OPTIONS:\n"))
        #expect(
            try sandbox.ok("products", "update", "--help").stdout.contains(
                "[--stock <n> | --add-stock <n> | --remove-stock <n> | --no-stock]\n         [--active | --inactive]"))
    }

    @Test("--version prints the version alone; with --json, as JSON")
    func version() throws {
        let sandbox = try CartSandbox()
        #expect(try sandbox.ok("--version").stdout == CartCommandLine.version + "\n")
        for arguments in [["--version", "--json"], ["--json", "--version"]] {
            let result = try sandbox.run(arguments)
            #expect(result.status == 0 && result.stdout == #"{"version":""# + CartCommandLine.version + "\"}\n", "\(result)")
        }
    }

    @Test("usage errors exit 64 with the error, the usage line and where to find help")
    func usageErrors() throws {
        let sandbox = try CartSandbox()
        let missing = try sandbox.run("add")
        #expect(missing.status == 64)
        #expect(
            missing.stderr == """
                Error: Missing expected argument '<sku>'.
                Usage: cart add <sku> [<quantity>] [--if-version <n>]
                See 'cart add --help' for more information.

                """)
        #expect(missing.stdout.isEmpty)
        let typo = try sandbox.run("prodcuts", "--json")
        #expect(typo.status == 64 && typo.errorLines == ["Error: Unknown command 'prodcuts'. Did you mean 'products'?"])
        let early = try sandbox.run("--stor", "memory", "show")
        #expect(
            early.status == 64
                && early.stderr == """
                    Error: Unknown option '--stor'. Did you mean '--store'?
                    Usage: cart show
                    See 'cart show --help' for more information.

                    """,
            "\(early)")
        let quantity = try sandbox.run("add", "apple", "-1")
        #expect(
            quantity.errorLines == [
                "Error: The value '-1' is invalid for '<quantity>': expected a whole number written with the digits 0-9."
            ])
        #expect(!FileManager.default.fileExists(atPath: sandbox.database), "a usage error must not create the database")
    }

    @Test("a failed write to stdout is one error line and exit 1, not silence")
    func stdoutFull() throws {
        let sandbox = try CartSandbox()
        try sandbox.ok("demo")
        let result = try sandbox.shell(#"exec "$0" products > /dev/full"#)
        #expect(result.status == 1)
        #expect(result.stderr == "Error: Cannot write output: No space left on device.\n")
    }

    @Test("a change that committed but whose output could not be written exits 74 and says the change was saved")
    func savedButOutputFailed() throws {
        let sandbox = try CartSandbox()
        try sandbox.ok("demo")
        let saved = "Error: The change was saved, but its output could not be written: "
        let full = try sandbox.shell(#"exec "$0" add apple > /dev/full"#)
        #expect(full.status == 74, "\(full)")
        #expect(full.stderr == saved + "No space left on device.\n")
        let json = try sandbox.shell(#"exec "$0" add apple --json > /dev/full"#)
        #expect(json.status == 74 && json.stderr == saved + "No space left on device.\n", "\(json)")
        let closed = try sandbox.shell(#"exec "$0" add apple >&-"#)
        #expect(closed.status == 74 && closed.stderr == saved + "Bad file descriptor.\n", "\(closed)")
        #expect(try sandbox.ok("show", "--json").stdout.contains(#""quantity":3,"sku":"apple""#), "every change was kept")
        let refused = try sandbox.shell(#"exec "$0" add nothing-like-it > /dev/full"#)
        #expect(refused.status == 1 && refused.stderr == "Error: No product with SKU 'nothing-like-it'.\n", "\(refused)")
        let read = try sandbox.shell(#"exec "$0" show > /dev/full"#)
        #expect(read.status == 1 && read.stderr == "Error: Cannot write output: No space left on device.\n", "\(read)")
        // The store commands that write without the service say so too: a retry of a copy
        // would find its target no longer empty.
        let copy = sandbox.path("copy.sqlite3")
        let copied = try sandbox.shell(#"exec "$0" db copy --to "\#(copy)" > /dev/full"#)
        #expect(copied.status == 74 && copied.stderr == saved + "No space left on device.\n", "\(copied)")
        #expect(try sandbox.ok("--db", copy, "show", "--json").stdout.contains(#""quantity":3,"sku":"apple""#))
        let created = try sandbox.shell(#"exec "$0" --db "\#(sandbox.path("new.sqlite3"))" db init > /dev/full"#)
        #expect(created.status == 74, "\(created)")
        let current = try sandbox.shell(#"exec "$0" db migrate > /dev/full"#)
        #expect(current.status == 1, "a migrate that applied nothing saved nothing: \(current)")
    }

    @Test("a command that found the store already as asked exits 1 when its output fails, not 74")
    func unchangedButOutputFailed() throws {
        let sandbox = try CartSandbox()
        try sandbox.ok("demo")
        try sandbox.ok("add", "apple", "2")
        try sandbox.ok("checkout", "--key", "k1")
        try sandbox.ok("add", "apple", "2")
        try sandbox.ok("--cart", "empty", "add", "apple")
        try sandbox.ok("--cart", "empty", "clear")
        let csv = try sandbox.write("same.csv", Array("sku,name,price\napple,Apple,0.50\n".utf8))
        try sandbox.ok("products", "import", csv)
        let before = try sandbox.ok("--json", "db", "status").stdout
        let failed = "Error: Cannot write output: No space left on device.\n"
        for command in [
            "checkout --key k1", "set apple 2", "set nothing-here 0", "--cart empty clear", "merge empty",
            "prune --older-than 30", "products import \(csv)", "products update apple --price 0.50 --active",
            "db init",
        ] {
            let result = try sandbox.shell(#"exec "$0" "# + command + " > /dev/full")
            #expect(result.status == 1 && result.stderr == failed, "\(command): \(result)")
        }
        #expect(try sandbox.ok("--json", "db", "status").stdout == before, "nothing was written")
        #expect(
            try sandbox.ok("products", "update", "apple", "--name", "Apple").stdout
                == "Nothing changed: apple (Apple) at $0.50, stock not tracked.\n")
        // The same commands when they change something still say that the change stays made.
        let saved = "Error: The change was saved, but its output could not be written: No space left on device.\n"
        for command in ["set apple 5", "clear", "products update apple --price 0.60", "db init --max-lines 50"] {
            let result = try sandbox.shell(#"exec "$0" "# + command + " > /dev/full")
            #expect(result.status == 74 && result.stderr == saved, "\(command): \(result)")
        }
    }

    @Test("garbage argv through the real binary ends in 64 with one error line")
    func garbage() throws {
        let sandbox = try CartSandbox()
        for argv in [
            ["\u{0}"], ["--", "--"], ["-"], ["--=x"], ["add", "a", "b", "c"], ["🛒"], ["--db"],
            ["orders", "--after", "-3"],
        ] {
            let result = try sandbox.run(argv)
            #expect(result.status == 64, "\(argv) \(result)")
            #expect(result.errorLines.count == 1, "\(argv) \(result)")
        }
    }
}
