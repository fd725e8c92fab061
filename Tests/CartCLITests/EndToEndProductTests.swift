import Foundation
import Testing

@Suite("cart binary: the catalog")
struct EndToEndProductTests {
    @Test("products add, update, show and list, for people and as JSON")
    func catalog() throws {
        let sandbox = try CartSandbox()
        #expect(
            try sandbox.ok("products").stdout
                == "No products. Add one with 'cart products add' or load samples with 'cart demo'.\n")
        #expect(
            try sandbox.ok("products", "add", "apple", "--name", "Apple", "--price", "1.29").stdout
                == "Added apple (Apple) at $1.29, stock not tracked.\n")
        try sandbox.ok("products", "add", "kiwi", "--name=Kiwi \"gold\"", "--price=12", "--stock=4")
        #expect(
            try sandbox.ok("products", "update", "apple", "--price", "1.5", "--stock", "9").stdout
                == "Updated apple (Apple) at $1.50, 9 in stock.\n")
        try sandbox.ok("products", "update", "kiwi", "--inactive", "--no-stock")
        #expect(
            try sandbox.ok("products").stdout == """
                SKU    NAME   PRICE  STOCK
                apple  Apple  $1.50      9

                """)
        #expect(
            try sandbox.ok("products", "--all").stdout == """
                SKU    NAME          PRICE  STOCK  ACTIVE
                apple  Apple         $1.50      9  yes
                kiwi   Kiwi "gold"  $12.00      -  no

                """)
        #expect(
            try sandbox.ok("products", "--all", "--json").stdout
                == #"{"products":[{"active":true,"currency":"USD","name":"Apple","price":"1.50","sku":"apple","stock":9},"#
                + #"{"active":false,"currency":"USD","name":"Kiwi \"gold\"","price":"12.00","sku":"kiwi","stock":null}]}"#
                + "\n")
        #expect(
            try sandbox.ok("products", "show", "kiwi").stdout == """
                SKU:     kiwi
                Name:    Kiwi "gold"
                Price:   $12.00
                Stock:   not tracked
                Active:  no

                """)
        #expect(
            try sandbox.ok("products", "show", "apple", "--json").stdout
                == #"{"active":true,"currency":"USD","name":"Apple","price":"1.50","sku":"apple","stock":9}"# + "\n")
    }

    @Test("catalog mistakes: exit 1 for rules, 64 for malformed values, and nothing changes")
    func catalogErrors() throws {
        let sandbox = try CartSandbox()
        try sandbox.ok("products", "add", "apple", "--name", "Apple", "--price", "1.29")
        let before = try sandbox.ok("products", "--all", "--json").stdout
        let exists = try sandbox.run("products", "add", "apple", "--name", "A", "--price", "1")
        #expect(exists.status == 1 && exists.errorLines.first?.contains("already exists") == true)
        let cents = try sandbox.run("products", "update", "apple", "--price", "1.299")
        #expect(cents.status == 64)
        #expect(
            cents.errorLines == [
                "Error: The value '1.299' is invalid for '--price <amount>': USD has at most 2 decimal places."
            ])
        let nothing = try sandbox.run("products", "update", "apple")
        #expect(nothing.status == 64 && nothing.stderr.contains("Nothing to update"))
        let missing = try sandbox.run("products", "show", "pear")
        #expect(missing.status == 1 && missing.stderr == "Error: No product with SKU 'pear'.\n")
        #expect(try sandbox.ok("products", "--all", "--json").stdout == before)
    }

    @Test("import reads CSV with quoting and CRLF, and JSON; a second import of the same file changes nothing")
    func importFiles() throws {
        let sandbox = try CartSandbox()
        let csv = try sandbox.write(
            "p.csv",
            Array("sku,name,price,stock\r\napple,\"Apple, red\",1.29,\r\npie,\"Pie, \"\"deluxe\"\"\",4.50,2\r\n".utf8))
        #expect(
            try sandbox.ok("products", "import", csv).stdout
                == "Imported 2 products from \(csv): 2 created, 0 updated, 0 unchanged.\n")
        #expect(try sandbox.ok("products", "show", "pie", "--json").stdout.contains(#""name":"Pie, \"deluxe\"""#))
        let json = try sandbox.write("p.json", Array(#"[{"sku":"apple","name":"Apple","price":"1.35"}]"#.utf8))
        #expect(
            try sandbox.ok("products", "import", json, "--json").stdout == #"{"created":0,"unchanged":0,"updated":1}"#
                + "\n")
        #expect(
            try sandbox.ok("products", "import", json, "--json").stdout == #"{"created":0,"unchanged":1,"updated":0}"#
                + "\n")
    }

    @Test("what 'products --all --json' writes imports back as it is")
    func exportImportRoundTrip() throws {
        let source = try CartSandbox()
        try source.ok("demo")
        try source.ok("products", "update", "tea", "--inactive")
        let exported = try source.ok("products", "--all", "--json").stdout
        let file = try source.write("all.json", Array(exported.utf8))
        let target = try CartSandbox()
        #expect(
            try target.ok("products", "import", file).stdout
                == "Imported 12 products from \(file): 12 created, 0 updated, 0 unchanged.\n")
        #expect(try target.ok("products", "--all", "--json").stdout == exported)
    }

    @Test("a bad import names the line or index and imports nothing")
    func importAllOrNothing() throws {
        let sandbox = try CartSandbox()
        let csv = try sandbox.write("bad.csv", Array("sku,name,price\nok,Fine,1\n\"two\nline\",X,1\nbad,Bad,-3\n".utf8))
        let result = try sandbox.run("products", "import", csv)
        #expect(result.status == 1)
        #expect(result.stderr == "Error: \(csv):5: Invalid amount '-3': amounts cannot be negative.\n")
        let invalid = try sandbox.write(
            "utf8.csv", Array("sku,name,price\nok,Fine,1\nx,".utf8) + [0xFF] + Array(",1\n".utf8))
        #expect(
            try sandbox.run("products", "import", invalid).stderr
                == "Error: \(invalid):3: The text is not valid UTF-8.\n")
        let duplicate = try sandbox.write(
            "dup.json", Array(#"[{"sku":"a","name":"A","price":"1"},{"sku":"a","name":"B","price":"2"}]"#.utf8))
        #expect(
            try sandbox.run("products", "import", duplicate).stderr
                == "Error: \(duplicate): index 1: SKU 'a' already appears at index 0.\n")
        let rule = try sandbox.write("rule.csv", Array("sku,name,price\nok,Fine,1\n\"\",Empty,1\n".utf8))
        #expect(
            try sandbox.run("products", "import", rule).stderr == "Error: \(rule):3: Invalid SKU '': it is empty.\n")
        let absent = try sandbox.run("products", "import", sandbox.path("nope.csv"))
        #expect(absent.status == 1 && absent.stderr == "Error: No such file '\(sandbox.path("nope.csv"))'.\n")
        #expect(try sandbox.ok("products", "--all", "--json").stdout == #"{"products":[]}"# + "\n")
    }

    @Test("demo loads a dozen products once; the second run changes nothing")
    func demo() throws {
        let sandbox = try CartSandbox()
        let first = try sandbox.ok("demo")
        #expect(first.stdout.hasPrefix("Added 12 sample products priced in USD.\n\nTry next:\n  cart products"))
        #expect(first.stdout.hasSuffix("\nThe shop in a browser: run 'cart serve', then open http://127.0.0.1:8080\n"))
        try sandbox.ok("add", "coffee", "2")
        try sandbox.ok("checkout")
        let catalog = try sandbox.ok("products", "--all", "--json").stdout
        #expect(
            catalog.contains(
                #"{"active":true,"currency":"USD","name":"Coffee beans, 1 kg","price":"18.99","sku":"coffee","stock":3}"#))
        let second = try sandbox.ok("demo", "--json")
        #expect(second.stdout == #"{"added":0,"alreadyThere":12}"# + "\n")
        #expect(
            try sandbox.ok("demo").stdout.hasPrefix(
                "The 12 sample products are already in the catalog; nothing changed."))
        #expect(try sandbox.ok("products", "--all", "--json").stdout == catalog)
    }
}
