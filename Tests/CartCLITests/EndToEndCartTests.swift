import Foundation
import Testing

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
                == #"{"cart":"default","version":1,"currency":"USD","items":[{"sku":"apple","name":"Apple","quantity":2,"unitPrice":"1.29","lineTotal":"2.58"}],"totalItems":2,"subtotal":"2.58"}"#
                + "\n")
        #expect(try sandbox.ok("--cart", "nobody", "show").stdout == "Cart is empty.\n")
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
        #expect(try sandbox.ok("set", "apple", "7").stdout == "Set apple to 7 units (cart 'default', version 3).\n")
        #expect(
            try sandbox.ok("set", "apple", "0").stdout == "Removed apple from the cart (cart 'default', version 4).\n")
        try sandbox.ok("add", "kiwi", "2")
        #expect(try sandbox.ok("delete", "kiwi").stdout == "Removed kiwi from the cart (cart 'default', version 6).\n")
        try sandbox.ok("add", "apple")
        #expect(try sandbox.ok("clear").stdout == "Cleared the cart (cart 'default', version 8).\n")
        #expect(try sandbox.ok("show").stdout == "Cart is empty.\n")
        let json = try sandbox.ok("add", "apple", "--json").stdout
        #expect(json.hasPrefix(#"{"cart":"default","version":9,"#))
    }

    @Test("--if-version refuses a stale change with exit 1 and leaves the cart as it was")
    func optimisticConcurrency() throws {
        let sandbox = try stocked()
        try sandbox.ok("add", "apple")
        let before = try sandbox.ok("show", "--json").stdout
        let stale = try sandbox.run("add", "apple", "--if-version", "0")
        #expect(stale.status == 1)
        #expect(stale.stderr == "Error: Cart 'default' is at version 1, not 0; it changed since you read it.\n")
        #expect(try sandbox.ok("show", "--json").stdout == before)
        try sandbox.ok("add", "apple", "--if-version", "1")
        try sandbox.ok("checkout", "--if-version", "2")
    }

    @Test("rule violations exit 1 with one line and change nothing")
    func ruleViolations() throws {
        let sandbox = try stocked()
        try sandbox.ok("add", "kiwi", "2")
        let before = try sandbox.ok("show", "--json").stdout
        for (arguments, message) in [
            (["add", "pear"], "No product with SKU 'pear'."),
            (["add", "kiwi", "2"], "Insufficient stock for 'kiwi': 4 requested, 3 available."),
            (["add", "apple", "100"], "Quantity must be between 1 and 99; got 100."),
            (["remove", "apple"], "'apple' is not in cart 'default'."),
            (["merge", "default"], "Cannot merge cart 'default' into itself."),
        ] {
            let result = try sandbox.run(arguments)
            #expect(result.status == 1, "\(arguments) \(result)")
            #expect(result.stderr == "Error: \(message)\n", "\(arguments)")
        }
        #expect(try sandbox.ok("show", "--json").stdout == before)
    }

    @Test("--cart beats CART_ID, which beats the default cart")
    func cartPrecedence() throws {
        let sandbox = try stocked()
        try sandbox.ok("add", "apple")
        sandbox.environment["CART_ID"] = "alice"
        try sandbox.ok("add", "apple", "2")
        try sandbox.ok("add", "apple", "3", "--cart", "bob")
        #expect(try sandbox.ok("show", "--json").stdout.contains(#""cart":"alice","version":1"#))
        #expect(try sandbox.ok("show", "--json", "--cart=bob").stdout.contains(#""totalItems":3"#))
        sandbox.environment["CART_ID"] = ""
        #expect(try sandbox.ok("show", "--json").stdout.contains(#""cart":"default","version":1"#))
    }

    @Test("checkout prints the order; the same key replays it and changes nothing")
    func checkout() throws {
        let sandbox = try stocked()
        try sandbox.ok("add", "apple", "2")
        let placed = try sandbox.ok("checkout", "--key", "k-1", "--json")
        #expect(
            placed.stdout
                == #"{"order":1,"cart":"default","total":"2.58","currency":"USD","totalItems":2,"replayed":false}"#
                + "\n")
        let again = try sandbox.ok("checkout", "--key", "k-1")
        #expect(
            again.stdout
                == "Order #1 was already placed with this key for cart 'default': 2 items, total $2.58. Nothing changed.\n"
        )
        let replayed = try sandbox.ok("checkout", "--key", "k-1", "--json")
        #expect(replayed.stdout.contains(#""order":1,"#) && replayed.stdout.contains(#""replayed":true"#))
        let empty = try sandbox.run("checkout")
        #expect(empty.status == 1 && empty.stderr == "Error: Cart 'default' is empty; there is nothing to check out.\n")
        try sandbox.ok("add", "kiwi")
        #expect(try sandbox.ok("checkout").stdout == "Placed order #2 for cart 'default': 1 item, total $0.50.\n")
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
        #expect(json.hasPrefix(#"{"carts":[{"cart":"default","version":2,"lines":2,"totalItems":4,"updatedAt":""#))
        #expect(
            try sandbox.ok("prune", "--older-than", "1").stdout == "Deleted 0 carts not changed in the last 1 day.\n")
        #expect(try sandbox.ok("prune", "--older-than", "0", "--json").stdout == #"{"deleted":2}"# + "\n")
        #expect(try sandbox.ok("carts").stdout == "No carts.\n")
    }
}
