import Foundation
import Testing

@testable import CartCLI

@Suite("cart binary: the catalog")
struct EndToEndProductTests {
    @Test("products add, update, show and list, for people and as JSON")
    func catalog() throws {
        let sandbox = try CartSandbox()
        try sandbox.ok("db", "init")
        #expect(
            try sandbox.ok("products").stdout
                == "No products. Add one with 'cart products add' or load samples with 'cart demo'.\n")
        #expect(
            try sandbox.ok("products", "add", "apple", "--name", "Apple", "--price", "1.29").stdout
                == "Added apple (Apple) at $1.29, stock not tracked.\n")
        try sandbox.ok("products", "add", "kiwi", "--name=Kiwi \"gold\"", "--price=12", "--stock=4")
        // A product may be added off sale, to go on sale later.
        #expect(
            try sandbox.ok("products", "add", "fig", "--name", "Fig", "--price", "2", "--inactive").stdout
                == "Added fig (Fig) at $2.00, stock not tracked, inactive.\n")
        #expect(try sandbox.run("add", "fig").status == 1)
        try sandbox.ok("products", "delete", "fig")
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
                == #"{"next":null,"products":[{"active":true,"currency":"USD","name":"Apple","price":"1.50","sku":"apple","stock":9},"#
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
        let untracked = try sandbox.run("products", "update", "apple", "--add-stock", "5")
        #expect(
            untracked.status == 1
                && untracked.stderr
                    == "Error: The stock of 'apple' is not tracked, so units cannot be added to it; set a stock level first.\n")
        let both = try sandbox.run("products", "update", "apple", "--stock", "5", "--remove-stock", "1")
        #expect(both.status == 64 && both.errorLines.first == "Error: '--stock' cannot be used with '--remove-stock'.")
        #expect(try sandbox.ok("products", "--all", "--json").stdout == before)
    }

    @Test("--add-stock and --remove-stock change the stock by units; below zero is refused and nothing changes")
    func relativeStock() throws {
        let sandbox = try CartSandbox()
        try sandbox.ok("products", "add", "tea", "--name", "Tea", "--price", "2.00", "--stock", "4")
        #expect(try sandbox.ok("products", "update", "tea", "--add-stock", "10").stdout == "Updated tea (Tea) at $2.00, 14 in stock.\n")
        #expect(try sandbox.ok("products", "update", "tea", "--remove-stock", "3", "--json").stdout.contains(#""stock":11"#))
        let tooMany = try sandbox.run("products", "update", "tea", "--remove-stock", "12", "--name", "Green tea")
        #expect(tooMany.status == 1 && tooMany.stderr == "Error: Cannot take 12 from the stock of 'tea': it holds 11.\n")
        #expect(try sandbox.ok("products", "show", "tea").stdout.contains("Name:    Tea\nPrice:   $2.00\nStock:   11\n"))
        let zero = try sandbox.run("products", "update", "tea", "--add-stock", "0")
        #expect(zero.status == 64 && zero.errorLines.first?.contains("must be a whole number of at least 1") == true)
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
            try sandbox.ok("products", "import", json, "--json").stdout
                == #"{"changed":{"active":0,"names":1,"prices":1,"stock":0},"created":0,"unchanged":0,"updated":1}"#
                + "\n")
        #expect(
            try sandbox.ok("products", "import", json, "--json").stdout
                == #"{"changed":{"active":0,"names":0,"prices":0,"stock":0},"created":0,"unchanged":1,"updated":0}"#
                + "\n")
    }

    @Test("a price-only import keeps stock and off-sale flags; the result says what changed")
    func priceSheetImport() throws {
        let sandbox = try CartSandbox()
        try sandbox.ok("products", "add", "kiwi", "--name", "Kiwi", "--price", "0.50", "--stock", "3")
        try sandbox.ok("products", "add", "fig", "--name", "Fig", "--price", "0.40")
        try sandbox.ok("products", "update", "fig", "--inactive")
        let prices = try sandbox.write("prices.csv", Array("sku,price\nkiwi,0.55\nfig,0.45\n".utf8))
        #expect(
            try sandbox.ok("products", "import", prices).stdout
                == "Imported 2 products from \(prices): 0 created, 2 updated (2 prices), 0 unchanged.\n")
        #expect(
            try sandbox.ok("products", "--all", "--json").stdout
                == #"{"next":null,"products":[{"active":false,"currency":"USD","name":"Fig","price":"0.45","sku":"fig","stock":null},"#
                + #"{"active":true,"currency":"USD","name":"Kiwi","price":"0.55","sku":"kiwi","stock":3}]}"# + "\n")
        let flags = try sandbox.write("flags.csv", Array("sku,active,stock\nfig,yes,\nkiwi,true,5\n".utf8))
        #expect(
            try sandbox.ok("products", "import", flags).stdout
                == "Imported 2 products from \(flags): 0 created, 2 updated (1 stock level, 1 active flag), 0 unchanged.\n")
        let newProduct = try sandbox.write("new.csv", Array("sku,price\nkiwi,0.60\npear,0.99\n".utf8))
        let refused = try sandbox.run("products", "import", newProduct)
        #expect(refused.status == 1)
        #expect(
            refused.stderr
                == "Error: \(newProduct):3: 'pear' is not in the catalog, so it is a new product and needs a name.\n")
        #expect(try sandbox.ok("products", "show", "kiwi", "--json").stdout.contains(#""price":"0.55""#), "all or nothing")
    }

    /// A catalog that is hard to write out: quotes, commas, a line-leading space, Unicode, an
    /// emoji, stock untracked and at 0, an inactive product.
    func awkwardCatalog() throws -> CartSandbox {
        let sandbox = try CartSandbox()
        try sandbox.ok("products", "add", "quote", "--name", #"Say "hi", then "bye""#, "--price", "1.00")
        try sandbox.ok("products", "add", "comma,sku", "--name", "A, B and C", "--price", "0.05", "--stock", "0")
        try sandbox.ok("products", "add", "apfel", "--name", "Grüne Äpfel 🍏 — Bio", "--price", "2.49", "--stock", "12")
        try sandbox.ok("products", "add", "old", "--name", "Retired; no more", "--price", "9.99")
        try sandbox.ok("products", "update", "old", "--inactive")
        return sandbox
    }

    @Test("products export writes CSV or JSON that import reads back to the same catalog, in a new store and the same one")
    func exportRoundTrip() throws {
        let source = try awkwardCatalog()
        let catalog = try source.ok("products", "--all", "--json").stdout
        let csv = try source.ok("products", "export").stdout
        #expect(
            csv == #"""
                sku,name,price,stock,active,currency
                apfel,Grüne Äpfel 🍏 — Bio,2.49,12,true,USD
                "comma,sku","A, B and C",0.05,0,true,USD
                old,Retired; no more,9.99,,false,USD
                quote,"Say ""hi"", then ""bye""",1.00,,true,USD

                """#)
        for (name, arguments) in [("c.csv", ["--csv"]), ("c.json", []), ("j.txt", ["--json"])] {
            let path = source.path(name)
            let exported = try source.run(["products", "export", path] + arguments)
            let confirmation = arguments == ["--json"] ? #"{"exported":4}"# : "Exported 4 products to \(path)."
            #expect(exported.status == 0 && exported.stdout == confirmation + "\n", "\(exported)")
            let target = try CartSandbox()
            #expect(
                try target.ok("products", "import", path).stdout
                    == "Imported 4 products from \(path): 4 created, 0 updated, 0 unchanged.\n", "\(name)")
            #expect(try target.ok("products", "--all", "--json").stdout == catalog, "\(name)")
            #expect(
                try source.ok("products", "import", path).stdout
                    == "Imported 4 products from \(path): 0 created, 0 updated, 4 unchanged.\n", "\(name)")
        }
        #expect(try source.ok("products", "export", source.path("c.json")).stdout.hasSuffix("c.json.\n"))
        let json = try String(contentsOfFile: source.path("c.json"), encoding: .utf8)
        // The shape of a `cart products --json` page, the last one: every product, `next` null.
        #expect(json.hasPrefix(#"{"next":null,"products":[{"active":true,"currency":"USD","name":"Grüne Äpfel 🍏 — Bio""#))
        let refused = try source.run("products", "export", "--csv", "--json")
        #expect(refused.status == 64)
        let mismatched = try source.run("--json", "products", "export", source.path("z.CSV"))
        #expect(mismatched.status == 64 && mismatched.stderr.contains("ends in .csv: leave out --json for CSV"), "\(mismatched)")
        #expect(!FileManager.default.fileExists(atPath: source.path("z.CSV")))
        let mismatchedCSV = try source.run("products", "export", "--csv", source.path("z.Json"))
        #expect(mismatchedCSV.status == 64 && mismatchedCSV.stderr.contains("ends in .json: leave out --csv for JSON"), "\(mismatchedCSV)")
        #expect(!FileManager.default.fileExists(atPath: source.path("z.Json")))
        let directory = try source.run("products", "export", source.path(""))
        #expect(directory.status == 1 && directory.stderr.hasSuffix("is a directory, not a file.\n"))
    }

    @Test("a product added while another process changes the store's currency is added, or refused in words, never a usage error")
    func currencyChangedMeanwhile() throws {
        let sandbox = try CartSandbox()
        // The price reads the same in USD and JPY, so only the race can refuse it.
        let rounds = try sandbox.shell(
            #"""
            for i in $(seq 1 30); do
                db="$HOME/race-$i.sqlite3"
                "$0" --db "$db" db init > /dev/null
                "$0" --db "$db" db init --currency JPY > /dev/null 2>&1 &
                "$0" --db "$db" products add a --name A --price 2 > /dev/null 2> "$HOME/err-$i"
                echo "$? $(cat "$HOME/err-$i")"
                wait
            done
            """#)
        let changed = "Error: The store's currency changed from USD to JPY while this command ran; run it again with amounts in JPY."
        let outcomes = rounds.stdout.split(separator: "\n").map(String.init)
        #expect(outcomes.count == 30, "\(rounds)")
        for outcome in outcomes { #expect(outcome == "0 " || outcome == "1 " + changed, "\(outcome)") }
    }

    @Test("products export refuses a file its user may not write, as a shell redirection does")
    func exportRefusesReadOnlyFile() throws {
        let sandbox = try CartSandbox()
        // Root may write any file: the export then runs as nobody, in a directory anyone may
        // write, over a file only root may.
        let directory = sandbox.path("out")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        #expect(chmod(directory, 0o777) == 0 && chmod(sandbox.path(""), 0o755) == 0)
        let file = try sandbox.write("out/kept.csv", Array("old\n".utf8))
        #expect(chmod(file, 0o444) == 0)
        let launcher = getuid() == 0 ? CartSandbox.asNobody : []
        let database = sandbox.path("nobody.sqlite3")
        try sandbox.ok("--db", database, "products", "add", "tea", "--name", "Tea", "--price", "2.50")
        #expect(chmod(database, 0o644) == 0)
        let refused = try sandbox.run(["--db", database, "products", "export", file], launcher: launcher)
        #expect(refused.status == 1 && refused.stderr == "Error: Cannot write '\(file)': Permission denied.\n", "\(refused)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "old\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["kept.csv"], "no temporary file is left")
    }

    @Test("an export names the store's currency, and an import into a store of another currency is refused, saying how to make one in it")
    func exportCurrency() throws {
        let euros = try CartSandbox()
        try euros.ok("db", "init", "--currency", "EUR")
        try euros.ok("products", "add", "tea", "--name", "Tea", "--price", "2.50")
        try euros.ok("products", "export", euros.path("p.csv"))
        try euros.ok("products", "export", euros.path("p.json"))
        #expect(try String(contentsOfFile: euros.path("p.csv"), encoding: .utf8).hasSuffix("tea,Tea,2.50,,true,EUR\n"))
        for name in ["p.csv", "p.json"] {
            let file = euros.path(name)
            let where_ = name == "p.csv" ? "\(file):2: Currency" : "\(file): index 0: \"currency\""
            // Into a store the import would make: nothing is made, and the message says how.
            let fresh = try CartSandbox()
            let refused = try fresh.run("products", "import", file)
            let advice = "To import it into a new store in EUR, make the store first: \(try CartSandbox.typedName()) db init --currency EUR"
            #expect(
                refused.status == 1
                    && refused.stderr == "Error: \(where_) is 'EUR', not the store currency USD. \(advice)\n", "\(refused)")
            #expect(!FileManager.default.fileExists(atPath: fresh.database), "no store made")
            // Into a store that exists, in another currency.
            try fresh.ok("db", "init")
            let existing = try fresh.run("products", "import", file)
            #expect(existing.status == 1 && existing.stderr == "Error: \(where_) is 'EUR', not the store currency USD.\n")
            // Into a store in the file's currency, as it was.
            let other = try CartSandbox()
            try other.ok("db", "init", "--currency", "EUR")
            #expect(try other.ok("products", "import", file).stdout.contains("1 created"))
            #expect(try other.ok("products", "show", "tea").stdout.contains("€2.50"))
        }
        // The currency is checked before the price, whose digits are the currency's: a KWD price
        // in a USD store is refused for its currency, not its third digit. A file in several
        // currencies gets no new-store advice, and an unknown code is said to be one.
        let fresh = try CartSandbox()
        let kwd = try fresh.write("k.csv", Array("sku,name,price,currency\nlamp,Lamp,1.290,KWD\n".utf8))
        #expect(try fresh.run("products", "import", kwd).stderr.hasPrefix("Error: \(kwd):2: Currency is 'KWD', not the store currency USD. To import"))
        let mixed = try fresh.write("m.csv", Array("sku,name,price,currency\na,A,1.00,usd\nb,B,2.00,EUR\n".utf8))
        #expect(try fresh.run("products", "import", mixed).stderr == "Error: \(mixed):3: Currency is 'EUR', not the store currency USD.\n")
        let unknown = try fresh.write("x.csv", Array("sku,name,price,currency\na,A,1.00,XYZ\n".utf8))
        #expect(
            try fresh.run("products", "import", unknown).stderr
                == "Error: \(unknown):2: Currency 'XYZ' is not a currency code; the store currency is USD.\n")
        #expect(!FileManager.default.fileExists(atPath: fresh.database))
        // A file without the column, or with an empty cell, is read in the store's currency.
        let plain = try euros.write("plain.csv", Array("sku,price,currency\ntea,3.00, \n".utf8))
        #expect(try euros.ok("products", "import", plain).stdout.contains("1 updated (1 price)"))
    }

    @Test("products export writes through a link, a pipe and a device rather than replacing them")
    func exportThroughSpecialFiles() throws {
        let sandbox = try CartSandbox()
        try sandbox.ok("products", "add", "tea", "--name", "Tea", "--price", "2.50")
        let csv = "sku,name,price,stock,active,currency\ntea,Tea,2.50,,true,USD\n"
        func kind(_ path: String) -> mode_t {
            var info = stat()
            return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
        }

        let target = try sandbox.write("target.csv", Array("old\n".utf8))
        let link = sandbox.path("link.csv")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        try sandbox.ok("products", "export", link)
        #expect(kind(link) == S_IFLNK, "the link stays a link")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == csv)

        let dangling = sandbox.path("dangling.csv")
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: sandbox.path("made.csv"))
        try sandbox.ok("products", "export", dangling)
        #expect(kind(dangling) == S_IFLNK)
        #expect(try String(contentsOfFile: sandbox.path("made.csv"), encoding: .utf8) == csv)

        let fifo = sandbox.path("fifo.csv")
        #expect(mkfifo(fifo, 0o600) == 0)
        let copied = sandbox.path("from-fifo.csv")
        let reader = try Process.run(URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", #"cat "$0" > "$1""#, fifo, copied])
        try sandbox.ok("products", "export", fifo)
        reader.waitUntilExit()
        #expect(kind(fifo) == S_IFIFO)
        #expect(try String(contentsOfFile: copied, encoding: .utf8) == csv)

        // A device: a copy of /dev/full where the tests may make one (as root), so that a
        // failure replaces only the copy.
        let full = sandbox.path("full")
        let made = try Process.run(
            URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", #"mknod "$0" c 1 7 2>/dev/null"#, full])
        made.waitUntilExit()
        if made.terminationStatus == 0 {
            let refused = try sandbox.run("products", "export", full)
            #expect(refused.status == 1 && refused.stderr == "Error: Cannot write '\(full)': No space left on device.\n")
            #expect(kind(full) == S_IFCHR, "the device is still a device")
        }
    }

    @Test("products --search finds SKUs and names in any case; --limit pages with the command for the next page")
    func searchAndLimit() throws {
        let sandbox = try awkwardCatalog()
        #expect(
            try sandbox.ok("products", "--search", "ÄPFEL").stdout == """
                SKU    NAME                  PRICE  STOCK
                apfel  Grüne Äpfel 🍏 — Bio  $2.49     12

                """)
        #expect(try sandbox.ok("products", "--search", "no more").stdout == "No products match.\n")
        #expect(try sandbox.ok("products", "--all", "--search", "NO MORE", "--json").stdout.contains(#""sku":"old""#))
        let first = try sandbox.ok("products", "--all", "--limit", "2").stdout
        #expect(
            first.hasSuffix("More: \(try CartSandbox.typedName()) products --all --limit 2 --after comma,sku\n"), "\(first)")
        let second = try sandbox.ok("products", "--all", "--limit", "2", "--after", "comma,sku", "--json").stdout
        #expect(second.hasPrefix(#"{"next":null,"products":[{"active":false,"#), "\(second)")
        #expect(try sandbox.run("products", "--limit", "0").status == 64)
    }

    @Test("the next-page command writes a value that starts with - as --name=value, and runs as printed")
    func nextPageOfDashValues() throws {
        let sandbox = try CartSandbox()
        try sandbox.ok("products", "add", "--name", "A", "--price", "1", "--", "-a")
        try sandbox.ok("products", "add", "--name", "B", "--price", "1", "--", "-b")
        let first = try sandbox.ok("products", "--limit", "1").stdout
        let hint = "More: \(try CartSandbox.typedName()) products --limit 1 --after=-a\n"
        #expect(first.hasSuffix(hint), "\(first)")
        #expect(try sandbox.ok("products", "--limit", "1", "--after=-a").stdout.contains("-b "))
    }

    @Test("products delete removes a product no cart holds; one a cart holds is refused, naming the cart")
    func deleteProduct() throws {
        let sandbox = try awkwardCatalog()
        try sandbox.ok("add", "apfel", "2")
        try sandbox.ok("checkout")
        try sandbox.ok("--cart", "alice", "add", "quote")
        let held = try sandbox.run("products", "delete", "quote")
        #expect(held.status == 1)
        #expect(
            held.stderr
                == "Error: Product 'quote' is in 1 cart ('alice'); remove it from that cart before deleting it.\n")
        #expect(
            try sandbox.ok("products", "delete", "apfel").stdout
                == "Deleted apfel (Grüne Äpfel 🍏 — Bio) at $2.49, 10 in stock. Orders keep their lines.\n")
        #expect(try sandbox.run("products", "show", "apfel").status == 1)
        #expect(try sandbox.ok("orders", "show", "1").stdout.contains("Grüne Äpfel"), "the order keeps its line")
        let unknown = try sandbox.run("products", "delete", "apfel")
        #expect(unknown.status == 1 && unknown.stderr == "Error: No product with SKU 'apfel'.\n")
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

    @Test("- is standard output for export and standard input for import; ./- is a file")
    func dashIsStandardStream() throws {
        let sandbox = try CartSandbox()
        try sandbox.ok("demo")
        let csv = try sandbox.ok("products", "export").stdout
        #expect(try sandbox.ok("products", "export", "-").stdout == csv)
        let db = "'" + sandbox.database + "'"
        let piped = try sandbox.shell(#"printf 'sku,price\napple,2.00\n' | "$0" --db "# + db + " products import -")
        #expect(piped.status == 0 && piped.stdout == "Imported 1 product from stdin: 0 created, 1 updated (1 price), 0 unchanged.\n", "\(piped)")
        let bad = try sandbox.shell(#"printf 'sku,price\napple,x\n' | "$0" --db "# + db + " products import -")
        #expect(bad.status == 1 && bad.stderr.hasPrefix("Error: stdin:2: "), "\(bad)")
        let file = try sandbox.shell("cd '\(sandbox.path(""))' && \"$0\" --db \(db) products export ./- && test -s ./-")
        #expect(file.status == 0, "\(file)")
    }

    @Test("an import reads pipes and devices but stops at 256 MiB; an export keeps the file's permissions")
    func importLimitAndExportMode() throws {
        let sandbox = try CartSandbox()
        try sandbox.ok("demo")
        let before = try sandbox.ok("products", "export").stdout
        let endless = try sandbox.run("products", "import", "/dev/zero")
        #expect(endless.status == 1)
        #expect(endless.stderr == "Error: Cannot read '/dev/zero': it holds more than 256 MiB, the most an import reads; split it.\n")
        #expect(try sandbox.ok("products", "export").stdout == before)
        let db = "'" + sandbox.database + "'"
        let fifo = "'" + sandbox.path("pipe") + "'"
        let piped = try sandbox.shell(
            "mkfifo \(fifo) && { printf 'sku,price\\napple,2.00\\n' > \(fifo) & } && \"$0\" --db \(db) products import \(fifo)")
        #expect(piped.status == 0 && piped.stdout.contains("1 updated"), "\(piped)")

        let file = sandbox.path("private.csv")
        #expect(FileManager.default.createFile(atPath: file, contents: Data(), attributes: [.posixPermissions: 0o600]))
        try sandbox.ok("products", "export", file)
        #expect(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int == 0o600)
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
        var catalog = "sku,name,price\n"
        for number in 2...1000 {
            catalog += number == 501 ? "sku-501,\"Open name,1.00\n" : "sku-\(number),\"Name \(number)\",1.00\n"
        }
        let unclosed = try sandbox.write("unclosed.csv", Array(catalog.utf8))
        #expect(
            try sandbox.run("products", "import", unclosed).stderr
                == "Error: \(unclosed):501: A quoted field is never closed: read as one field, it runs on to line 502.\n")
        let rule = try sandbox.write("rule.csv", Array("sku,name,price\nok,Fine,1\n\"\",Empty,1\n".utf8))
        #expect(
            try sandbox.run("products", "import", rule).stderr == "Error: \(rule):3: Invalid SKU '': it is empty.\n")
        let absent = try sandbox.run("products", "import", sandbox.path("nope.csv"))
        #expect(absent.status == 1 && absent.stderr == "Error: No such file '\(sandbox.path("nope.csv"))'.\n")
        // Every import was refused, so not even the store was created.
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
        #expect(try sandbox.ok("products", "add", "x", "--name", "X", "--price", "1").status == 0)
        #expect(try sandbox.run("products", "import", rule).status == 1)
        #expect(try sandbox.ok("products", "--all", "--json").stdout.contains(#""sku":"x""#))
        #expect(!(try sandbox.ok("products", "--all", "--json").stdout.contains(#""sku":"ok""#)))
    }

    @Test("a price over the cap is quoted as written, not as the amount it parses to, and nothing changes")
    func priceOverCapQuotedAsWritten() throws {
        let sandbox = try CartSandbox()
        try sandbox.ok("products", "add", "apple", "--name", "Apple", "--price", "1")
        let before = try sandbox.ok("products", "--all", "--json").stdout
        let added = try sandbox.run("products", "add", "x", "--name", "X", "--price", "100000000")
        #expect(added.status == 64, "\(added)")
        #expect(added.errorLines == ["Error: The value '100000000' is invalid for '--price <amount>': prices are at most 1000000.00."])
        let updated = try sandbox.run("products", "update", "apple", "--price", "100000000.0")
        #expect(updated.status == 64, "\(updated)")
        #expect(updated.errorLines == ["Error: The value '100000000.0' is invalid for '--price <amount>': prices are at most 1000000.00."])
        let csv = try sandbox.write("cap.csv", Array("sku,name,price\nok,Fine,1\nx,X,100000000\n".utf8))
        let json = try sandbox.write("cap.json", Array(#"[{"sku":"ok","name":"Fine","price":"1"},{"sku":"x","name":"X","price":100000000.0}]"#.utf8))
        for (file, place, written) in [(csv, ":3", "100000000"), (json, ": index 1", "100000000.0")] {
            let imported = try sandbox.run("products", "import", file)
            #expect(imported.status == 1, "\(imported)")
            #expect(imported.stderr == "Error: \(file)\(place): Invalid amount '\(written)': prices are at most 1000000.00.\n")
        }
        #expect(try sandbox.ok("products", "--all", "--json").stdout == before)
    }

    @Test("demo loads a dozen products once; the second run changes nothing")
    func demo() throws {
        let sandbox = try CartSandbox()
        let first = try sandbox.ok("demo")
        #expect(first.stdout.hasPrefix("Added 12 sample products priced in USD to '\(sandbox.database)'.\n\nTry next:\n  "))
        #expect(first.stdout.contains("\nOpen the shop:\n  ") && first.stdout.hasSuffix(" serve  then visit http://127.0.0.1:8080/\n"))
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

    /// The commands demo suggests, as printed.
    private func suggestions(_ output: String) throws -> [String] {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex(of: "Try next:"))
        return lines[(start + 1)...].prefix { $0.hasPrefix("  ") }.map {
            String($0.dropFirst(2).split(separator: "  ", maxSplits: 1)[0])
        }
    }

    @Test("demo's next steps run as typed, by the path the tool was started with, and end with how to open the shop")
    func demoNextSteps() throws {
        let sandbox = try CartSandbox()
        let binary = try CartSandbox.binary()
        let output = try sandbox.ok("demo").stdout
        let commands = try suggestions(output)
        #expect(commands.first == ShellQuoting.quoted(binary) + " products", "\(output)")
        #expect(commands.count >= 6)
        for command in commands {
            let result = try sandbox.shell(command)
            #expect(result.status == 0, "\(command): \(result)")
        }
        #expect(try sandbox.ok("orders", "--json").stdout.contains(#""number":1,"#), "the tour placed an order")
        #expect(
            output.hasSuffix(
                "Open the shop:\n  \(ShellQuoting.quoted(binary)) serve  then visit http://127.0.0.1:8080/\n"),
            "\(output)")
        let directory = (binary as NSString).deletingLastPathComponent
        let onPath = try sandbox.run(["demo"], environment: ["PATH": directory + ":/usr/bin:/bin"]).stdout
        #expect(try suggestions(onPath).first == "cart products", "\(onPath)")
        #expect(onPath.hasSuffix("Open the shop:\n  cart serve  then visit http://127.0.0.1:8080/\n"))
        let elsewhere = sandbox.path("other.sqlite3")
        let chosen = try suggestions(try sandbox.ok("--db", elsewhere, "demo").stdout)
        #expect(chosen.first == ShellQuoting.quoted(binary) + " --db " + ShellQuoting.quoted(elsewhere) + " products")
    }

    @Test(
        "demo's way to the shop names the address CART_LISTEN makes 'cart serve' listen on, and the token it needs beyond loopback",
        arguments: [
            ("127.0.0.1:9090", false, "then visit http://127.0.0.1:9090/"),
            ("localhost:8081", false, "then visit http://localhost:8081/"),
            ("[::1]:8082", false, "then visit http://[::1]:8082/"),
            ("0.0.0.0:8083", true, "then visit http://127.0.0.1:8083/"),
            ("0.0.0.0:8083", false, "listening on 0.0.0.0 needs an admin token: set CART_ADMIN_TOKEN, then visit http://127.0.0.1:8083/"),
            ("[::]:8084", true, "then visit http://[::1]:8084/"),
            ("[::]:8084", false, "listening on [::] needs an admin token: set CART_ADMIN_TOKEN, then visit http://[::1]:8084/"),
            ("192.0.2.7:0", false, "listening on 192.0.2.7 needs an admin token: set CART_ADMIN_TOKEN, then visit the address it prints"),
            ("127.0.0.1:0", false, "then visit the address it prints"),
            ("127.0.0.1", false, "then visit the address it prints"),
        ])
    func demoShopAddress(listen: String, withToken: Bool, hint: String) throws {
        let sandbox = try CartSandbox()
        let token = withToken ? ["CART_ADMIN_TOKEN": RunningServer.token] : [:]
        let output = try sandbox.run(["demo"], environment: ["CART_LISTEN": listen].merging(token) { $1 })
        #expect(output.status == 0 && output.stdout.hasSuffix(" serve  \(hint)\n"), "\(output)")
    }
}
