import Foundation
import Testing

@testable import CartCLI

@Suite("cart binary: carts and checkout")
struct EndToEndCartTests {
    /// A sandbox with apple ($1.29) and kiwi ($0.50, 3 in stock).
    func stocked() throws -> CartSandbox {
        let sandbox = try CartSandbox()
        try sandbox.ok("products", "add", "apple", "--name", "Apple", "--price", "1.29")
        try sandbox.ok("products", "add", "kiwi", "--name", "Kiwi", "--price", "0.50", "--stock", "3")
        return sandbox
    }

    @Test("a cart survives across invocations and its version counts the changes")
    func persistence() throws {
        let sandbox = try stocked()
        try sandbox.ok("add", "apple", "2")
        try sandbox.ok("add", "kiwi")
        let shown = try sandbox.ok("show")
        #expect(
            shown.stdout == """
                Cart 'default', version 2
                SKU    NAME   QTY   UNIT  TOTAL
                apple  Apple    2  $1.29  $2.58
                kiwi   Kiwi     1  $0.50  $0.50
                3 items, subtotal $3.08

                """)
        #expect(shown.stderr.isEmpty)
        #expect(FileManager.default.fileExists(atPath: sandbox.database))
    }

    @Test("cart show --json has the documented shape")
    func showJSON() throws {
        let sandbox = try stocked()
        try sandbox.ok("add", "apple", "2")
        #expect(
            try sandbox.ok("show", "--json").stdout
                == #"{"cart":"default","currency":"USD","items":[{"currency":"USD","lineTotal":"2.58","name":"Apple","quantity":2,"sku":"apple","unitPrice":"1.29"}],"#
                + #""problems":[],"subtotal":"2.58","totalItems":2,"version":1}"# + "\n")
        #expect(try sandbox.ok("--cart", "nobody", "show").stdout == "Cart 'nobody' is empty.\n")
    }

    @Test("remove, set, delete and clear change the cart; each mutation reports the new version")
    func mutations() throws {
        let sandbox = try stocked()
        #expect(
            try sandbox.ok("add", "apple", "5").stdout
                == "Added 5 × apple: 5 units in the line (cart 'default', version 1).\n")
        #expect(
            try sandbox.ok("remove", "apple", "2").stdout
                == "Removed 2 × apple: 3 units left (cart 'default', version 2).\n")
        #expect(
            try sandbox.ok("remove", "apple", "5").stdout
                == "Removed apple from the cart: it held only 3 of the 5 asked (cart 'default', version 3).\n")
        try sandbox.ok("add", "apple", "3")
        #expect(try sandbox.ok("set", "apple", "7").stdout == "Set apple to 7 units (cart 'default', version 5).\n")
        #expect(
            try sandbox.ok("set", "apple", "7").stdout
                == "apple already has 7 units; nothing changed (cart 'default', version 5).\n")
        #expect(
            try sandbox.ok("set", "apple", "0").stdout == "Removed apple from the cart (cart 'default', version 6).\n")
        #expect(
            try sandbox.ok("set", "apple", "0").stdout
                == "apple was not in the cart; nothing changed (cart 'default', version 6).\n")
        try sandbox.ok("add", "kiwi", "2")
        #expect(try sandbox.ok("delete", "kiwi").stdout == "Removed kiwi from the cart (cart 'default', version 8).\n")
        try sandbox.ok("add", "apple")
        #expect(try sandbox.ok("clear").stdout == "Cleared the cart (cart 'default', version 10).\n")
        #expect(
            try sandbox.ok("clear").stdout == "The cart was already empty; nothing changed (cart 'default', version 10).\n")
        #expect(try sandbox.ok("show").stdout == "Cart 'default' is empty.\n")
        let json = try sandbox.ok("add", "apple", "--json").stdout
        #expect(
            json.hasPrefix(#"{"cart":"default","currency":"USD","items":[{"#) && json.hasSuffix(#""version":11}"# + "\n"))
    }

    @Test("show marks each line that has a problem and lists every problem; --json has them; checkout names them all")
    func problems() throws {
        let sandbox = try stocked()
        try sandbox.ok("products", "add", "pear", "--name", "Pear", "--price", "0.99")
        try sandbox.ok("add", "apple", "2")
        try sandbox.ok("add", "kiwi", "3")
        try sandbox.ok("add", "pear")
        try sandbox.ok("products", "update", "apple", "--inactive")
        try sandbox.ok("products", "update", "kiwi", "--stock", "1")
        try sandbox.ok("db", "init", "--max-lines", "2")
        #expect(
            try sandbox.ok("show").stdout == """
                Cart 'default', version 3
                   SKU    NAME   QTY   UNIT  TOTAL
                !  apple  Apple    2  $1.29  $2.58
                !  kiwi   Kiwi     3  $0.50  $1.50
                   pear   Pear     1  $0.99  $0.99
                6 items, subtotal $5.07
                Checkout is refused until these 3 problems are fixed:
                  ! 'apple' is not for sale.
                  ! 'kiwi': 3 in the cart, 1 in stock.
                  ! 3 lines in the cart, at most 2 per cart.

                """)
        let json = try sandbox.ok("show", "--json").stdout
        #expect(
            json.contains(
                #""problems":[{"code":"inactive_product","message":"'apple' is not for sale.","sku":"apple"},"#
                    + #"{"code":"insufficient_stock","message":"'kiwi': 3 in the cart, 1 in stock.","sku":"kiwi"},"#
                    + #"{"code":"line_count_cap","message":"3 lines in the cart, at most 2 per cart.","sku":null}]"#),
            "\(json)")
        #expect(try sandbox.ok("add", "pear", "--json").stdout.contains(#""problems":[{"code":"inactive_product""#))
        let inactive = try sandbox.run("add", "apple")
        #expect(
            inactive.status == 1
                && inactive.stderr
                    == "Error: Product 'apple' is not for sale. 'cart products update apple --active' puts it on sale again.\n",
            "\(inactive)")
        let before = try sandbox.ok("show", "--json").stdout
        let refused = try sandbox.run("checkout")
        #expect(refused.status == 1)
        #expect(
            refused.stderr == "Error: Cart 'default' cannot be checked out: 'apple' is not for sale; "
                + "'kiwi': 3 in the cart, 1 in stock; 3 lines in the cart, at most 2 per cart.\n")
        #expect(try sandbox.ok("show", "--json").stdout == before)
        try sandbox.ok("delete", "apple")
        try sandbox.ok("set", "kiwi", "1")
        #expect(!(try sandbox.ok("show").stdout.contains("!")))
        #expect(try sandbox.ok("show", "--json").stdout.contains(#""problems":[]"#))
        try sandbox.ok("checkout")
    }

    @Test("--if-version refuses a stale change with exit 1 and leaves the cart as it was")
    func optimisticConcurrency() throws {
        let sandbox = try stocked()
        try sandbox.ok("add", "apple")
        let before = try sandbox.ok("show", "--json").stdout
        let stale = try sandbox.run("add", "apple", "--if-version", "0")
        #expect(stale.status == 1)
        #expect(stale.stderr == "Error: Cart 'default' is at version 1, not 0; it changed since you read it.\n")
        // A version the cart has not reached cannot have been read.
        let ahead = try sandbox.run("add", "apple", "--if-version", "5")
        #expect(ahead.stderr == "Error: Cart 'default' is at version 1, not 5, a version it has not reached yet.\n")
        #expect(try sandbox.ok("show", "--json").stdout == before)
        try sandbox.ok("add", "apple", "--if-version", "1")
        try sandbox.ok("--cart", "guest", "add", "kiwi")
        let carts = try sandbox.ok("carts", "--json").stdout
        let staleMerge = try sandbox.run("merge", "guest", "--if-version", "1")
        #expect(staleMerge.status == 1)
        #expect(staleMerge.stderr == "Error: Cart 'default' is at version 2, not 1; it changed since you read it.\n")
        #expect(try sandbox.ok("carts", "--json").stdout == carts)
        try sandbox.ok("merge", "guest", "--if-version", "2")
        try sandbox.ok("checkout", "--if-version", "3")
    }

    @Test("rule violations exit 1 with one line and change nothing")
    func ruleViolations() throws {
        let sandbox = try stocked()
        try sandbox.ok("add", "kiwi", "2")
        let before = try sandbox.ok("show", "--json").stdout
        for (arguments, message) in [
            (["add", "pear"], "No product with SKU 'pear'."),
            (["add", "kiwi", "2"], "Insufficient stock for 'kiwi': the line would hold 4 of the 3 in stock."),
            (["remove", "apple"], "'apple' is not in cart 'default'."),
            (["merge", "default"], "Cannot merge cart 'default' into itself."),
        ] {
            let result = try sandbox.run(arguments)
            #expect(result.status == 1, "\(arguments) \(result)")
            #expect(result.stderr == "Error: \(message)\n", "\(arguments)")
        }
        #expect(try sandbox.ok("show", "--json").stdout == before)
    }

    @Test("an unknown SKU suggests the nearest stored one, as mistyped commands and options do")
    func skuSuggestion() throws {
        let sandbox = try stocked()
        try sandbox.ok("products", "add", "fig", "--name", "Fig", "--price", "0.40")
        try sandbox.ok("products", "update", "fig", "--inactive")
        let before = try sandbox.ok("show", "--json").stdout
        for (arguments, sku, match) in [
            (["add", "appel"], "appel", "apple"),
            (["set", "kiwii", "2"], "kiwii", "kiwi"),
            (["products", "show", "APPLE"], "APPLE", "apple"),
            (["products", "update", "fgi", "--price", "1"], "fgi", "fig"),
        ] {
            let result = try sandbox.run(arguments)
            #expect(result.status == 1, "\(arguments) \(result)")
            #expect(result.stderr == "Error: No product with SKU '\(sku)'. Did you mean '\(match)'?\n", "\(arguments)")
        }
        let far = try sandbox.run("add", "banana")
        #expect(far.status == 1 && far.stderr == "Error: No product with SKU 'banana'.\n")
        #expect(try sandbox.ok("show", "--json").stdout == before)
    }

    @Test("merge --json nests the cart under \"cart\", exactly as docs/CLI.md shows it")
    func mergeJSON() throws {
        let sandbox = try stocked()
        try sandbox.ok("add", "kiwi", "2", "--cart", "guest")
        try sandbox.ok("add", "kiwi", "2")
        let merged = try sandbox.ok("merge", "guest", "--json").stdout
        #expect(
            merged.hasPrefix(
                #"{"adjustments":[{"kept":3,"limit":3,"reason":"insufficient_stock","requested":4,"sku":"kiwi"}],"cart":{"cart":"default","#
            ), "\(merged)")
        let reference = try String(contentsOf: ReferenceTests.document, encoding: .utf8)
        #expect(reference.contains("`" + merged.dropLast() + "`"), "\(merged)")
    }

    @Test("merging an emptied cart says so and exits 0; a cart never written is not found (exit 1); neither changes anything")
    func mergeNothing() throws {
        let sandbox = try stocked()
        try sandbox.ok("add", "kiwi")
        try sandbox.ok("--cart", "guest", "add", "apple")
        try sandbox.ok("--cart", "guest", "clear")
        let before = try sandbox.ok("carts", "--json").stdout
        let result = try sandbox.ok("merge", "guest")
        #expect(result.stdout == "Nothing to merge: cart 'guest' has no lines; 'default' is unchanged.\n")
        let mistyped = try sandbox.run("merge", "gest")
        #expect(mistyped.status == 1, "\(mistyped)")
        #expect(mistyped.stderr == "Error: No cart 'gest'.\n")
        #expect(try sandbox.ok("carts", "--json").stdout == before)
    }

    @Test("a malformed value from argv or the environment is a usage error (64); from an import file, exit 1")
    func malformedValues() throws {
        let sandbox = try stocked()
        try sandbox.ok("add", "apple")
        let before = try sandbox.ok("show", "--json").stdout
        for (arguments, environment, message) in [
            (["--cart", "", "show"], [:], "Invalid cart ID '': it is empty."),
            (["--cart=", "add", "apple"], [:], "Invalid cart ID '': it is empty."),
            (["show"], ["CART_ID": "  "], "Invalid cart ID '  ': it has leading or trailing space."),
            (["orders", "--sku", ""], [:], "Invalid SKU '': it is empty."),
            (["checkout", "--key", ""], [:], "Invalid idempotency key '': it is empty."),
            (["merge", ""], [:], "Invalid cart ID '': it is empty."),
            (["products", "add", "", "--name", "X", "--price", "1"], [:], "Invalid SKU '': it is empty."),
            (["products", "add", "x", "--name", " ", "--price", "1"], [:], "Invalid product name ' ': it is empty."),
            (
                ["products", "add", "x", "--name", "X", "--price", "1000000.01"], [:],
                "The value '1000000.01' is invalid for '--price <amount>': prices are at most 1000000.00."
            ),
            (
                ["products", "update", "apple", "--price", "1000000.01"], [:],
                "The value '1000000.01' is invalid for '--price <amount>': prices are at most 1000000.00."
            ),
        ] {
            let result = try sandbox.run(arguments, environment: environment)
            #expect(result.status == 64, "\(arguments) \(result)")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 3 && lines[0] == "Error: \(message)", "\(arguments) \(result)")
            #expect(lines.count == 3 && lines[1].hasPrefix("Usage: cart") && lines[2].hasPrefix("See 'cart"))
        }
        #expect(try sandbox.ok("show", "--json").stdout == before)
        let file = try sandbox.write("bad.csv", Array("sku,name,price\n,Nameless,1.00\n".utf8))
        let imported = try sandbox.run("products", "import", file)
        #expect(imported.status == 1, "\(imported)")
        #expect(imported.stderr.split(separator: "\n").count == 1 && imported.stderr.contains("Invalid SKU"))
    }

    @Test("--cart beats CART_ID, which beats the default cart")
    func cartPrecedence() throws {
        let sandbox = try stocked()
        try sandbox.ok("add", "apple")
        sandbox.environment["CART_ID"] = "alice"
        try sandbox.ok("add", "apple", "2")
        try sandbox.ok("add", "apple", "3", "--cart", "bob")
        #expect(try sandbox.ok("show", "--json").stdout.contains(#""cart":"alice","#))
        #expect(try sandbox.ok("show", "--json", "--cart=bob").stdout.contains(#""totalItems":3"#))
        sandbox.environment["CART_ID"] = ""
        #expect(try sandbox.ok("show", "--json").stdout.contains(#""cart":"default","#))
    }

    @Test("checkout prints the order; the same key replays it and changes nothing")
    func checkout() throws {
        let sandbox = try stocked()
        try sandbox.ok("add", "apple", "2")
        let placed = try sandbox.ok("checkout", "--key", "k-1", "--json")
        let order =
            #"{"cart":"default","currency":"USD","idempotencyKey":"k-1","lines":[{"currency":"USD","lineTotal":"2.58","#
            + #""name":"Apple","quantity":2,"sku":"apple","unitPrice":"1.29"}],"number":1,"placedAt":""#
        #expect(placed.stdout.hasPrefix(#"{"order":"# + order), "\(placed)")
        #expect(placed.stdout.hasSuffix(#"Z","total":"2.58","totalItems":2},"replayed":false}"# + "\n"), "\(placed)")
        let again = try sandbox.ok("checkout", "--key", "k-1")
        #expect(
            again.stdout
                == "Order #1 was already placed with this key for cart 'default': 2 items, total $2.58. Nothing changed.\n"
        )
        let replayed = try sandbox.ok("checkout", "--key", "k-1", "--json")
        // The same order, the same JSON, but replayed.
        #expect(replayed.stdout == placed.stdout.replacing(#""replayed":false"#, with: #""replayed":true"#))
        let empty = try sandbox.run("checkout")
        #expect(empty.status == 1 && empty.stderr == "Error: Cart 'default' is empty; there is nothing to check out.\n")
        try sandbox.ok("add", "kiwi")
        // A replay after more was added says those items are in no order.
        #expect(
            try sandbox.ok("checkout", "--key", "k-1").stdout
                == "Order #1 was already placed with this key for cart 'default': 2 items, total $2.58. Nothing changed.\n"
                + "The cart holds 1 item added since, not in that order; check out with another key (or none) to order them.\n")
        #expect(try sandbox.ok("checkout").stdout == "Placed order #2 for cart 'default': 1 item, total $0.50.\n")
    }

    @Test("set and remove that leave a line above a cap lowered since say that checkout refuses it")
    func lineAboveLoweredCap() throws {
        let sandbox = try stocked()
        try sandbox.ok("set", "apple", "9")
        try sandbox.ok("db", "init", "--max-line-quantity", "5")
        #expect(
            try sandbox.ok("set", "apple", "7").stdout
                == "Set apple to 7 units (cart 'default', version 2).\n"
                + "Checkout is refused until this is fixed: 'apple': 7 in the cart, at most 5 per line.\n")
        #expect(try sandbox.ok("remove", "apple", "2").stdout == "Removed 2 × apple: 5 units left (cart 'default', version 3).\n")
    }

    @Test("a change that leaves its line with a problem says when the cart has others, and how to list them")
    func otherProblems() throws {
        let sandbox = try stocked()
        try sandbox.ok("add", "apple", "3", "--cart", "q1")
        try sandbox.ok("add", "kiwi", "2", "--cart", "q1")
        try sandbox.ok("products", "update", "apple", "--inactive")
        try sandbox.ok("products", "update", "kiwi", "--inactive")
        #expect(
            try sandbox.ok("remove", "apple", "--cart", "q1").stdout
                == "Removed 1 × apple: 2 units left (cart 'q1', version 3).\n"
                + "Checkout is refused until this is fixed: 'apple' is not for sale.\n"
                + "The cart has 1 other problem that checkout refuses too; to list it: \(try CartSandbox.typedName()) --cart q1 show\n")
        // A line without a problem of its own says nothing of the others.
        try sandbox.ok("products", "update", "apple", "--active")
        #expect(try sandbox.ok("remove", "apple", "--cart", "q1").stdout == "Removed 1 × apple: 1 unit left (cart 'q1', version 4).\n")
    }

    @Test("checkout --expect-total places the order only at that total")
    func expectedTotal() throws {
        let sandbox = try stocked()
        try sandbox.ok("add", "apple", "2")
        try sandbox.ok("products", "update", "apple", "--price", "1.50")
        let stale = try sandbox.run("checkout", "--expect-total", "2.58")
        #expect(stale.status == 1, "\(stale)")
        #expect(stale.stderr == "Error: Cart 'default' totals $3.00, not the $2.58 expected; nothing was ordered.\n")
        #expect(try sandbox.ok("orders", "--json").stdout.contains(#""orders":[]"#))
        #expect(try sandbox.run("checkout", "--expect-total", "-1").status == 64)
        #expect(try sandbox.ok("checkout", "--expect-total", "3").stdout == "Placed order #1 for cart 'default': 2 items, total $3.00.\n")
    }

    @Test("carts lists every cart; merge moves lines and reports clamps; prune deletes idle carts")
    func manyCarts() throws {
        let sandbox = try stocked()
        try sandbox.ok("add", "kiwi", "2", "--cart", "guest")
        try sandbox.ok("add", "apple", "--cart", "guest")
        try sandbox.ok("add", "kiwi", "2")
        let listed = try sandbox.ok("carts").stdout.split(separator: "\n")
        #expect(listed.first?.hasPrefix("CART     LINES  ITEMS  VERSION  UPDATED") == true)
        #expect(listed.count == 3)
        let merged = try sandbox.ok("merge", "guest")
        #expect(
            merged.stdout == """
                Merged 2 lines from 'guest' into 'default' (version 2).
                  kiwi: kept 3 of 4: only 3 in stock

                """)
        let json = try sandbox.ok("carts", "--json").stdout
        #expect(json.hasPrefix(#"{"carts":[{"cart":"default","lines":2,"totalItems":4,"updatedAt":""#))
        #expect(
            try sandbox.ok("prune", "--older-than", "1").stdout == "Deleted 0 carts not changed in the last day.\n")
        try sandbox.sql("UPDATE carts SET updated_at = updated_at - 40 * 86400000")
        try sandbox.ok("add", "apple", "--cart", "fresh")
        #expect(
            try sandbox.ok("prune", "--older-than", "30").stdout == "Deleted 2 carts not changed in the last 30 days.\n"
        )
        try sandbox.ok("add", "apple", "--cart", "stale")
        try sandbox.sql("UPDATE carts SET updated_at = updated_at - 3 * 86400000 WHERE id = 'stale'")
        #expect(
            try sandbox.ok("prune", "--older-than", "2").stdout == "Deleted 1 cart not changed in the last 2 days.\n")
        #expect(try sandbox.ok("prune", "--older-than", "1", "--json").stdout == #"{"deleted":0}"# + "\n")
        #expect(try sandbox.ok("carts", "--json").stdout.hasPrefix(#"{"carts":[{"cart":"fresh","#))
    }

    @Test("carts --non-empty leaves out carts checkouts emptied; --limit and --after page, with the next page's command")
    func cartPages() throws {
        let sandbox = try stocked()
        for cart in ["b", "a", "d", "c"] { try sandbox.ok("--cart", cart, "add", "apple") }
        try sandbox.ok("--cart", "b", "checkout")
        try sandbox.ok("--cart", "d", "clear")
        #expect(try sandbox.ok("carts", "--non-empty").stdout.split(separator: "\n").map { $0.prefix(4) } == ["CART", "a   ", "c   "])
        let first = try sandbox.ok("carts", "--limit", "2").stdout
        #expect(first.hasSuffix("More: \(try CartSandbox.typedName()) carts --limit 2 --after b\n"), "\(first)")
        let json = try sandbox.ok("carts", "--non-empty", "--limit", "1", "--json").stdout
        #expect(json.hasPrefix(#"{"carts":[{"cart":"a","#) && json.hasSuffix(#""next":"a"}"# + "\n"), "\(json)")
        let last = try sandbox.ok("carts", "--non-empty", "--after", "a", "--json").stdout
        #expect(last.hasPrefix(#"{"carts":[{"cart":"c","#) && last.hasSuffix(#"],"next":null}"# + "\n"), "\(last)")
        #expect(try sandbox.run("carts", "--limit", "0").status == 64)
        // No page's next is empty: a script that passes an emptied one is told, not sent back to the first page.
        for (arguments, message) in [
            (["carts", "--after", ""], "Error: Invalid cart ID '': it is empty."),
            (["products", "--limit", "1", "--after", ""], "Error: Invalid SKU '': it is empty."),
        ] {
            let refused = try sandbox.run(arguments)
            #expect(refused.status == 64 && refused.errorLines.first == message[...] && refused.stdout.isEmpty, "\(refused)")
        }
    }

    @Test("prune refuses --older-than 0, which would delete every cart, as a usage error")
    func pruneNeedsADay() throws {
        let sandbox = try stocked()
        try sandbox.ok("add", "apple")
        let result = try sandbox.run("prune", "--older-than", "0")
        #expect(result.status == 64, "\(result)")
        #expect(
            result.errorLines == [
                "Error: The value '0' is invalid for '--older-than <days>': must be a whole number from 1 to 36500."
            ])
        #expect(try sandbox.ok("carts", "--json").stdout.contains(#""cart":"default""#))
    }
}
