import CartCore
import Testing

@testable import CartCLI

@Suite("Argument parser")
struct ParserTests {
    @Test("options may come before, between and after the command words")
    func optionsAnywhere() throws {
        for argv in [
            ["--json", "--cart", "bob", "add", "apple", "2"], ["add", "--cart", "bob", "apple", "--json", "2"],
            ["add", "apple", "2", "--cart=bob", "--json"],
        ] {
            let parsed = try #require(invocation(argv), "\(argv)")
            #expect(parsed.command.fullName == "cart add")
            #expect(try parsed.value(of: CommandTree.sku) == "apple")
            #expect(try parsed.value(of: CartCommands.addedQuantity) == 2)
            #expect(try parsed.value(of: GlobalOptions.cart) == "bob")
            #expect(parsed[GlobalOptions.json])
        }
    }

    @Test("--opt=value and --opt value mean the same, and the last repeat wins")
    func valueForms() throws {
        let spaced = try #require(invocation(["orders", "--limit", "5", "--since", "2026-01-01"]))
        let joined = try #require(invocation(["orders", "--limit=5", "--since=2026-01-01"]))
        #expect(try spaced.value(of: OrderCommands.limit) == 5 && joined.value(of: OrderCommands.limit) == 5)
        #expect(try spaced.value(of: OrderCommands.since) == joined.value(of: OrderCommands.since))
        #expect(try invocation(["orders", "--limit", "5", "--limit=7"])?.value(of: OrderCommands.limit) == 7)
        #expect(
            try invocation(["products", "add", "x", "--name=a=b", "--price", "1"])?.value(of: ProductCommands.name)
                == "a=b")
    }

    @Test("-- ends options, so a SKU may start with a dash")
    func doubleDash() throws {
        let parsed = try #require(invocation(["add", "--json", "--", "--odd-sku", "3"]))
        #expect(try parsed.value(of: CommandTree.sku) == "--odd-sku")
        #expect(try parsed.value(of: CartCommands.addedQuantity) == 3)
        #expect(parsed[GlobalOptions.json])
    }

    @Test("a mistyped command or option gets a suggestion")
    func suggestions() {
        #expect(usageError(["prodcuts"]) == "Unknown command 'prodcuts'. Did you mean 'products'?")
        #expect(usageError(["chekout"]) == "Unknown command 'chekout'. Did you mean 'checkout'?")
        #expect(
            usageError(["products", "shwo", "x"])
                == "Unknown subcommand 'shwo' for 'cart products'. Did you mean 'show'?")
        // Options of the subcommand meant do not make the mistyped word an unknown option.
        #expect(
            usageError(["products", "ad", "x", "--name", "X", "--price", "1"])
                == "Unknown subcommand 'ad' for 'cart products'. Did you mean 'add'?")
        #expect(usageError(["orders", "--limt", "3"]) == "Unknown option '--limt'. Did you mean '--limit'?")
        #expect(usageError(["show", "--jsno"]) == "Unknown option '--jsno'. Did you mean '--json'?")
        #expect(usageError(["zzzzzz"]) == "Unknown command 'zzzzzz'.")
        // A command that takes arguments says how to give one that starts with a dash: a SKU may.
        #expect(
            usageError(["add", "-dash"])
                == "Unknown option '-dash'. To give '-dash' as an argument, write it after '--' (and options before that).")
        #expect(
            usageError(["add", "apple", "-x"])
                == "Unknown option '-x'. To give '-x' as an argument, write it after '--' (and options before that).")
        // Names other tools give an option this one spells otherwise, where the command has it.
        #expect(usageError(["serve", "--port", "8080"]) == "Unknown option '--port'. Did you mean '--listen <host:port>'?")
        #expect(usageError(["serve", "--token", "t"]) == "Unknown option '--token'. Did you mean '--admin-token <token>'?")
        #expect(usageError(["--database", "x", "show"]) == "Unknown option '--database'. Did you mean '--db <location>'?")
        #expect(usageError(["show", "--port", "8080"]) == "Unknown option '--port'.")
    }

    @Test("a mistyped option before the command is reported as the option, not as an unknown command")
    func unknownOptionBeforeCommand() throws {
        #expect(usageError(["--stor", "memory", "show"]) == "Unknown option '--stor'. Did you mean '--store'?")
        #expect(usageError(["--dbb", "/tmp/x", "show"]) == "Unknown option '--dbb'. Did you mean '--db'?")
        #expect(usageError(["db", "--stor", "memory", "check"]) == "Unknown option '--stor'. Did you mean '--store'?")
        #expect(usageError(["--stor", "memory", "shw"]) == "Unknown option '--stor'. Did you mean '--store'?")
        #expect(usageError(["--jsn", "show"]) == "Unknown option '--jsn'. Did you mean '--json'?")
        // The error shows the usage of the command the other words name.
        guard case .failure(let error) = parse(["--stor", "memory", "products", "add", "x"]) else {
            Issue.record("expected a usage error")
            return
        }
        #expect(error.command.fullName == "cart products add")
        // A known option before an unknown word leaves the word to be reported.
        #expect(usageError(["--json", "prodcuts"]) == "Unknown command 'prodcuts'. Did you mean 'products'?")
        #expect(usageError(["prodcuts", "--al"]) == "Unknown command 'prodcuts'. Did you mean 'products'?")
    }

    @Test("missing, unexpected and malformed arguments are usage errors naming them")
    func argumentErrors() {
        #expect(usageError(["add"]) == "Missing expected argument '<sku>'.")
        #expect(usageError(["set", "apple"]) == "Missing expected argument '<quantity>'.")
        #expect(usageError(["show", "extra"]) == "Unexpected argument 'extra'.")
        #expect(
            usageError(["products", "add", "--", "-dash", "--name", "Dash", "--price", "1"])
                == "Unexpected argument '--name'. After '--' every word is an argument: put options before '--'.")
        #expect(usageError(["orders", "--limit"]) == "Missing value for '--limit <n>'.")
        #expect(usageError(["orders", "--limit", "--json"]) == "Missing value for '--limit <n>'.")
        #expect(
            usageError(["--db", "-dash.db", "show"])
                == "Missing value for '--db <location>'. '-dash.db' reads as an option; to give it as the value, "
                + "write '--db=-dash.db' (or './-dash.db' for a file).")
        #expect(
            usageError(["products", "add", "x", "--price", "1", "--name", "-Dash"])
                == "Missing value for '--name <name>'. '-Dash' reads as an option; to give it as the value, "
                + "write '--name=-Dash'.")
        #expect(usageError(["--db", "--", "show"]) == "Missing value for '--db <location>'.")
        #expect(usageError(["show", "--json=yes"]) == "Option '--json' does not take a value.")
        #expect(usageError(["products", "add", "x", "--price", "1"]) == "Missing expected argument '--name <name>'.")
        #expect(
            usageError(["products", "update", "x", "--active", "--inactive"])
                == "'--active' cannot be used with '--inactive'.")
        #expect(
            usageError(["products", "update", "x", "--stock", "3", "--no-stock"])
                == "'--stock' cannot be used with '--no-stock'.")
        #expect(usageError(["orders", "--csv", "--json"]) == "'--csv' cannot be used with '--json'.")
        #expect(
            usageError(["--store", "disk", "show"])?.hasPrefix("The value 'disk' is invalid for '--store <store>'")
                == true)
        #expect(usageError(["orders", "--since", "2026-13-01"])?.contains("'--since <date>'") == true)
        #expect(
            usageError(["products", "--limit", "0"])
                == "The value '0' is invalid for '--limit <n>': must be a whole number from 1 to 10000.")
        #expect(usageError(["--db=", "show"])?.contains("'--db <location>'") == true)
    }

    @Test(
        "quantities are strict decimal digits",
        arguments: [
            "0", "-1", "1.5", "abc", "1e3", "0x10", " 2", "2 ", "+1", "", "２", "١", "99999999999999999999",
            "9223372036854775808",
        ])
    func badQuantities(text: String) throws {
        let message = try #require(usageError(["add", "apple", text]), "'\(text)' was accepted")
        #expect(message.contains("is invalid for '<quantity>'"), "\(message)")
        #expect(!message.contains("\n"))
    }

    @Test("good quantities, and 0 only where it means something")
    func goodQuantities() throws {
        #expect(try invocation(["add", "apple", "007"])?.value(of: CartCommands.addedQuantity) == 7)
        #expect(
            try invocation(["add", "apple", "9223372036854775807"])?.value(of: CartCommands.addedQuantity) == Int.max)
        #expect(try invocation(["set", "apple", "0"])?.value(of: CartCommands.newQuantity) == 0)
        #expect(usageError(["remove", "apple", "0"])?.contains("at least 1") == true)
        // Left out, the declared default applies.
        #expect(try invocation(["add", "apple"])?.value(of: CartCommands.addedQuantity) == 1)
        #expect(try invocation(["orders"])?.value(of: OrderCommands.limit) == CartService.defaultPageSize)
        #expect(try invocation(["orders"])?.value(of: OrderCommands.after) == .some(nil))
    }

    @Test("-h, --help and help <command> all ask for the same help")
    func helpForms() throws {
        for argv in [
            ["products", "add", "--help"], ["products", "add", "-h"], ["help", "products", "add"],
            ["--json", "products", "-h", "add"],
        ] {
            guard case .success(.help(let command)) = parse(argv) else {
                Issue.record("\(argv) did not ask for help")
                continue
            }
            #expect(command.fullName == "cart products add")
        }
        #expect(usageError(["help", "prodcts"]) == "Unknown command 'prodcts'. Did you mean 'products'?")
        guard case .success(.help(let group)) = parse(["db"]) else {
            Issue.record("a bare group shows its help")
            return
        }
        #expect(group.fullName == "cart db")
        guard case .success(.version(json: false)) = parse(["show", "--version"]) else {
            Issue.record("--version is accepted anywhere")
            return
        }
    }

    @Test("an option name means the same everywhere, and names are unique where they are looked up")
    func declarationsAreConsistent() {
        var takesValue: [String: Bool] = [:]
        func visit(_ spec: CommandSpec, path: String) {
            let names = spec.options.map(\.name) + GlobalOptions.all.map(\.name)
            #expect(Set(names).count == names.count, "\(path) declares an option twice or shadows a global one")
            #expect(Set(spec.subcommands.map(\.name)).count == spec.subcommands.count, "\(path) repeats a subcommand")
            #expect(
                spec.arguments.dropLast().allSatisfy { !$0.isRepeating }, "\(path): only the last argument may repeat")
            for option in spec.options + GlobalOptions.all {
                if let known = takesValue[option.name] {
                    #expect(known == option.takesValue, "\(option.name) takes a value in some commands only")
                }
                takesValue[option.name] = option.takesValue
                #expect(option.name.hasPrefix("--") && !option.help.isEmpty)
            }
            for group in spec.exclusive {
                #expect(group.allSatisfy { name in names.contains(name) }, "\(path) excludes an undeclared option")
            }
            for child in spec.subcommands { visit(child, path: path + " " + child.name) }
        }
        visit(CommandTree.root, path: "cart")
    }

    @Test("a value that looks like a negative number is a value, not an option")
    func negativeLooking() {
        #expect(CommandLineParser.looksLikeOption("--x") && CommandLineParser.looksLikeOption("-h"))
        #expect(!CommandLineParser.looksLikeOption("-1") && !CommandLineParser.looksLikeOption("-"))
        #expect(!CommandLineParser.looksLikeOption("-.5") && !CommandLineParser.looksLikeOption("a-b"))
    }

    @Test("edit distance counts a swap of neighbours as one edit")
    func editDistance() {
        #expect(Suggestion.editDistance(Array("qty"), Array("qyt")) == 1)
        #expect(Suggestion.editDistance(Array("kitten"), Array("sitting")) == 3)
        #expect(Suggestion.editDistance(Array(""), Array("abc")) == 3)
        #expect(Suggestion.closest(to: "--qyt", in: ["--qty", "--json"]) == "--qty")
        #expect(Suggestion.closest(to: "--", in: ["--qty"]) == nil)
        #expect(Suggestion.closest(to: "x", in: ["db"]) == nil)
    }
}
