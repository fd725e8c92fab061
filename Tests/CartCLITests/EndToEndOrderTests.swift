import Foundation
import Testing

@testable import CartCLI

@Suite("cart binary: order history")
struct EndToEndOrderTests {
    /// Three orders: #1 and #3 by `default`, #2 by `bob`.
    func history() throws -> CartSandbox {
        let sandbox = try CartSandbox()
        try sandbox.ok("products", "add", "apple", "--name", "Apple", "--price", "1.29")
        try sandbox.ok("products", "add", "pie", "--name", "Pie, \"deluxe\"", "--price", "4.50")
        try sandbox.ok("add", "apple", "2")
        try sandbox.ok("checkout")
        try sandbox.ok("add", "pie", "--cart", "bob")
        try sandbox.ok("checkout", "--cart", "bob")
        try sandbox.ok("add", "apple")
        try sandbox.ok("add", "pie", "3")
        try sandbox.ok("checkout")
        return sandbox
    }

    @Test("an order whose lines are gone is refused when shown, listed, exported or copied, not shown without them")
    func orderWithoutLines() throws {
        let sandbox = try history()
        try sandbox.sql("DELETE FROM order_lines WHERE order_number = 1")
        let message = "cannot use: order 1 has no lines. 'cart db check' lists every such value.\n"
        for arguments in [["orders", "show", "1"], ["orders"], ["orders", "--csv"], ["orders", "--json"]] {
            let result = try sandbox.run(arguments)
            #expect(result.status == 1 && result.stderr.hasSuffix(message), "\(arguments): \(result)")
        }
        let copy = sandbox.path("copy.sqlite3")
        let copied = try sandbox.run("db", "copy", "--to", copy)
        #expect(copied.status == 1 && copied.stderr.hasSuffix(message), "\(copied)")
        #expect(try sandbox.run("--db", copy, "orders", "--json").stdout.contains(#""orders":[]"#))
        // The other orders are whole: each is still shown.
        #expect(try sandbox.ok("orders", "show", "2").stdout.contains("Pie"))
    }

    @Test("orders --json pages newest first with a keyset cursor, in the documented shape")
    func pages() throws {
        let sandbox = try history()
        let first = try sandbox.ok("orders", "--limit", "2", "--json").stdout
        let pattern =
            #"^\{"next":2,"orders":\[\{"cart":"default","currency":"USD","lines":\[\{"currency":"USD","lineTotal":"1.29","name":"Apple","quantity":1,"sku":"apple","unitPrice":"1.29"\},\{"currency":"USD","lineTotal":"13.50","name":"Pie, \\"deluxe\\"","quantity":3,"sku":"pie","unitPrice":"4.50"\}\],"number":3,"placedAt":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z","total":"14.79","totalItems":4\},\{"cart":"bob",.*"number":2,.*\]\}\n$"#
        #expect(first.range(of: pattern, options: .regularExpression) != nil, "\(first)")
        let second = try sandbox.ok("orders", "--limit", "2", "--after", "2", "--json").stdout
        #expect(second.hasPrefix(#"{"next":null,"orders":[{"#) && second.contains(#""number":1,"#), "\(second)")
        #expect(!second.contains(#""number":2,"#), "\(second)")
        let oldest = try sandbox.ok("orders", "--oldest-first", "--limit=1", "--json").stdout
        #expect(oldest.hasPrefix(#"{"next":1,"orders":[{"#) && oldest.contains(#""number":1,"#), "\(oldest)")
        // A cursor naming no order is an error, in every form, rather than an empty last page.
        for arguments in [["orders", "--after", "9"], ["orders", "--after", "9", "--json"], ["orders", "--after", "9", "--csv"]] {
            let refused = try sandbox.run(arguments)
            #expect(refused.status == 1 && refused.stdout.isEmpty, "\(arguments) \(refused)")
            #expect(refused.stderr == "Error: No order number 9.\n", "\(arguments) \(refused)")
        }
    }

    @Test("orders lists every cart unless --cart or CART_ID chooses one")
    func cartFilter() throws {
        let sandbox = try history()
        func numbers(_ result: CartSandbox.Result) -> [String] {
            result.stdout.split(separator: "\n").dropFirst().map { String($0.split(separator: " ")[0]) }
        }
        #expect(numbers(try sandbox.ok("orders")) == ["3", "2", "1"])
        #expect(numbers(try sandbox.ok("orders", "--cart", "bob")) == ["2"])
        #expect(numbers(try sandbox.run(["orders"], environment: ["CART_ID": "default"])) == ["3", "1"])
        #expect(numbers(try sandbox.ok("orders", "--sku", "pie")) == ["3", "2"])
        let table = try sandbox.ok("orders", "--limit", "1").stdout.split(separator: "\n")
        #expect(
            table.first == "ORDER  PLACED                    CART     ITEMS   TOTAL"
                || table.first?.hasPrefix("ORDER  PLACED") == true)
        #expect(table.last == "More: \(try CartSandbox.typedName()) orders --limit 1 --after 3")
        #expect(try sandbox.ok("orders", "--since", "2000-01-01", "--until", "2000-01-02").stdout == "No orders.\n")
        #expect(
            try sandbox.ok("orders", "--until", "2999-01-01T00:00:00+02:00", "--json").stdout.contains(#""number":3"#))
    }

    @Test("the 'More:' hint repeats every option that chose the page, quoted for a shell, and leads to the next page")
    func nextPageHint() throws {
        let sandbox = try history()
        let first = try sandbox.ok(
            "orders", "--limit", "1", "--oldest-first", "--sku", "pie", "--since", "2000-01-01", "--until",
            "2999-01-01T12:30:00+02:00")
        let hint = try #require(first.stdout.split(separator: "\n").last)
        #expect(
            hint
                == "More: \(try CartSandbox.typedName()) orders --since 2000-01-01 --until 2999-01-01T10:30:00Z --sku pie --limit 1 --oldest-first --after 2"
        )
        let second = try sandbox.run(try Self.shellWords(hint, in: sandbox))
        #expect(second.status == 0, "\(second)")
        #expect(second.stdout.split(separator: "\n").map { $0.split(separator: " ")[0] } == ["ORDER", "3"])

        try sandbox.ok("add", "apple", "--cart", "o'brien cart")
        try sandbox.ok("checkout", "--cart", "o'brien cart")
        try sandbox.ok("add", "pie", "--cart", "o'brien cart")
        try sandbox.ok("checkout", "--cart", "o'brien cart")
        let quoted = try sandbox.ok("--db", sandbox.database, "orders", "--cart", "o'brien cart", "--limit", "1")
        let quotedHint = try #require(quoted.stdout.split(separator: "\n").last)
        #expect(
            quotedHint == "More: \(try CartSandbox.typedName()) --db \(sandbox.database) orders --cart 'o'\\''brien cart' --limit 1 --after 5")
        let rest = try sandbox.run(try Self.shellWords(quotedHint, in: sandbox), environment: ["CART_DB": ""])
        #expect(rest.stdout.split(separator: "\n").map { $0.split(separator: " ")[0] } == ["ORDER", "4"], "\(rest)")
    }

    @Test("the 'More:' hint keeps a bound's digits below the millisecond: its pages are the query's")
    func nextPageHintBelowMillisecond() throws {
        let sandbox = try history()
        let orders = try sandbox.ok("orders", "--oldest-first", "--json").stdout
        let placed = try #require(orders.firstMatch(of: /"number":2,"placedAt":"([^"]+)"/)?.1)
        // An instant a tenth of a millisecond after order 2's: order 2 is before it.
        let bound = placed.contains(".") ? placed.dropLast() + "1Z" : placed.dropLast() + ".0001Z"
        for (option, expected) in [("--since", ["3"]), ("--until", ["1", "2"])] {
            var pages: [String] = []
            var command = ["orders", option, String(bound), "--oldest-first", "--limit", "1"]
            while pages.count < 5 {
                let result = try sandbox.run(command)
                #expect(result.status == 0, "\(command): \(result)")
                let page = result.stdout.split(separator: "\n")
                pages += page.dropFirst().filter { !$0.hasPrefix("More: ") }.map { String($0.split(separator: " ")[0]) }
                guard let hint = page.last, hint.hasPrefix("More: ") else { break }
                command = try Self.shellWords(hint, in: sandbox)
            }
            #expect(pages == expected, "\(option) \(bound): \(pages)")
        }
    }

    /// The words a POSIX shell makes of `hint` after its `More: ` and the program.
    static func shellWords(_ hint: Substring, in sandbox: CartSandbox) throws -> [String] {
        let printed = try sandbox.shell("printf '%s\\n' " + hint.dropFirst("More: \(try CartSandbox.typedName()) ".count))
        return printed.stdout.split(separator: "\n").map(String.init)
    }

    @Test("orders --csv streams one escaped row per order line, all orders unless --limit")
    func csv() throws {
        let sandbox = try history()
        let rows = try sandbox.ok("orders", "--csv", "--oldest-first").stdout.split(separator: "\n").map(String.init)
        #expect(rows.count == 5)
        #expect(rows[0] == "number,placed_at,cart,sku,name,quantity,unit_price,line_total,currency")
        #expect(rows[1].hasPrefix("1,") && rows[1].hasSuffix(",default,apple,Apple,2,1.29,2.58,USD"))
        #expect(rows[2].hasSuffix(#",bob,pie,"Pie, ""deluxe""",1,4.50,4.50,USD"#))
        let first = try sandbox.ok("orders", "--csv", "--limit", "1")
        #expect(first.stdout.split(separator: "\n").count == 3)
        // stdout holds only CSV; the command for the orders left goes to stderr, and runs.
        let hint = try #require(first.stderr.split(separator: "\n").last)
        let next = try sandbox.run(try Self.shellWords(hint, in: sandbox))
        #expect(next.status == 0 && next.stdout.hasPrefix("number,placed_at,"), "\(next)")
        let firstNumbers = Set(first.stdout.split(separator: "\n").dropFirst().map { $0.prefix { $0 != "," } })
        let nextNumbers = Set(next.stdout.split(separator: "\n").dropFirst().map { $0.prefix { $0 != "," } })
        #expect(!nextNumbers.isEmpty && firstNumbers.isDisjoint(with: nextNumbers))
        #expect(try sandbox.ok("orders", "--csv", "--limit", "3").stderr.isEmpty, "nothing left, no hint")
        // A page holds at most 10,000 orders; the stream takes any limit, and goes on after one.
        let all = try sandbox.ok("orders", "--csv", "--limit", "20000")
        #expect(all.stdout.split(separator: "\n").count == 5 && all.stderr.isEmpty)
        let rest = try sandbox.ok("orders", "--csv", "--after", "2").stdout.split(separator: "\n")
        #expect(rest.dropFirst().map { $0.prefix(2) } == ["1,"])
        let conflict = try sandbox.run("orders", "--csv", "--json")
        #expect(conflict.status == 64)
    }

    @Test("a page ending just before a damaged order is shown, with its hint; the page that holds the order is refused")
    func pageBeforeDamagedOrder() throws {
        let sandbox = try history()
        try sandbox.sqlite3("PRAGMA ignore_check_constraints = 1; UPDATE orders SET total = total + 1 WHERE number = 1")
        let table = try sandbox.run(["orders", "--limit", "2"])
        #expect(table.status == 0 && table.stdout.hasSuffix("orders --limit 2 --after 2\n"), "\(table)")
        let csv = try sandbox.run(["orders", "--csv", "--limit", "2"])
        #expect(csv.status == 0 && Set(csv.stdout.split(separator: "\n").dropFirst().map { $0.prefix(2) }) == ["3,", "2,"], "\(csv)")
        #expect(csv.stderr.hasSuffix("orders --limit 2 --csv --after 2\n"), "\(csv)")
        let json = try sandbox.run(["orders", "--json", "--limit", "2"])
        #expect(json.status == 0 && json.stdout.contains(#""next":2"#), "\(json)")
        for arguments in [["orders"], ["orders", "--csv"], ["orders", "--after", "2"]] {
            let refused = try sandbox.run(arguments)
            #expect(refused.status == 1 && refused.stderr.contains("order 1: its totals"), "\(arguments): \(refused)")
        }
    }

    @Test("orders show prints one order; an unknown number is exit 1")
    func showOrder() throws {
        let sandbox = try history()
        let shown = try sandbox.ok("orders", "show", "3").stdout.split(separator: "\n").map(String.init)
        #expect(shown[0].hasPrefix("Order #3, cart 'default', placed "))
        #expect(
            Array(shown.dropFirst()) == [
                "SKU    NAME           QTY   UNIT   TOTAL",
                "apple  Apple            1  $1.29   $1.29",
                "pie    Pie, \"deluxe\"    3  $4.50  $13.50",
                "4 items, total $14.79",
            ])
        let json = try sandbox.ok("orders", "show", "2", "--json").stdout
        #expect(json.hasPrefix(#"{"cart":"bob","currency":"USD","lines":[{"#) && json.contains(#""number":2,"placedAt":""#))
        try sandbox.ok("add", "apple")
        try sandbox.ok("checkout", "--key", "click-7")
        #expect(try sandbox.ok("orders", "show", "4").stdout.split(separator: "\n")[0].hasSuffix("Z, key 'click-7'"))
        let missing = try sandbox.run("orders", "show", "99")
        #expect(missing.status == 1 && missing.stderr == "Error: No order number 99.\n")
        #expect(try sandbox.run("orders", "show", "x").status == 64)
    }

    @Test("stats of totals another client raised past 64 bits: one Error line saying how to narrow them")
    func statsOverflow() throws {
        let sandbox = try CartSandbox()
        try sandbox.ok("products", "add", "big", "--name", "Big", "--price", "1")
        for cart in ["a", "b", "c"] {
            try sandbox.ok("--cart", cart, "add", "big")
            try sandbox.ok("--cart", cart, "checkout")
        }
        let raise = "import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); db.execute('UPDATE orders SET total = 4000000000000000000'); db.commit()"
        #expect(try sandbox.shell("python3 -c \"\(raise)\" '\(sandbox.database)'").status == 0)
        let stats = try sandbox.run("orders", "stats")
        #expect(stats.status == 1)
        #expect(stats.errorLines.count == 1 && stats.errorLines.first?.contains("--since") == true, "\(stats)")
    }

    @Test("orders stats totals and groups revenue")
    func stats() throws {
        let sandbox = try history()
        #expect(
            try sandbox.ok("orders", "stats").stdout == """
                PERIOD  ORDERS  ITEMS  REVENUE
                total        3      7   $21.87

                """)
        #expect(
            try sandbox.ok("orders", "stats", "--by", "product", "--json").stdout
                == #"{"by":"product","currency":"USD","rows":[{"currency":"USD","items":4,"key":"pie","orders":2,"#
                + #""revenue":"18.00"},{"currency":"USD","items":3,"key":"apple","orders":2,"revenue":"3.87"}]}"# + "\n")
        let total = try sandbox.ok("orders", "stats", "--json").stdout
        #expect(
            total
                == #"{"by":"total","currency":"USD","rows":[{"currency":"USD","items":7,"key":"total","orders":3,"#
                + #""revenue":"21.87"}]}"# + "\n")
        // --by total names the default, as GET /v1/orders/stats?by=total does.
        #expect(try sandbox.ok("orders", "stats", "--by", "total", "--json").stdout == total)
        let reference = try String(contentsOf: ReferenceTests.document, encoding: .utf8)
        #expect(reference.contains("`" + total.dropLast() + "`"), "docs/CLI.md shows the default stats shape")
        let byDay = try sandbox.ok("orders", "stats", "--by=day").stdout.split(separator: "\n")
        #expect(byDay.count == 2 && byDay[0] == "DAY (UTC)   ORDERS  ITEMS  REVENUE")
        #expect(try sandbox.run("orders", "stats", "--by", "week").status == 64)
        // --sku counts the orders holding that product, as GET /v1/orders/stats?sku= does, and
        // says that the figures are of whole orders.
        #expect(
            try sandbox.ok("orders", "stats", "--sku", "pie").stdout == """
                PERIOD  ORDERS  ITEMS  REVENUE
                total        2      5   $19.29
                These are whole orders with a line of 'pie'; --by product gives its own units and revenue.

                """)
        let split = try sandbox.ok("orders", "stats", "--sku", "pie", "--by", "product").stdout
        #expect(split.hasPrefix("SKU    ORDERS  ITEMS  REVENUE\npie") && !split.contains("whole orders"), "\(split)")
    }

    @Test("orders stats --by day|month --utc-offset begins days at that offset's midnight, and says which offset it used")
    func statsAtOffset() throws {
        let sandbox = try history()
        // 2026-03-01T23:30Z, 2026-03-02T00:30Z and 2026-04-01T00:30Z.
        for (number, placedAt) in [(1, 1_772_407_800_000), (2, 1_772_411_400_000), (3, 1_775_003_400_000)] {
            try sandbox.sql("UPDATE orders SET placed_at = \(placedAt) WHERE number = \(number)")
            try sandbox.sql("UPDATE order_lines SET placed_at = \(placedAt) WHERE order_number = \(number)")
        }
        #expect(
            try sandbox.ok("orders", "stats", "--by", "day").stdout == """
                DAY (UTC)   ORDERS  ITEMS  REVENUE
                2026-03-01       1      2    $2.58
                2026-03-02       1      1    $4.50
                2026-04-01       1      4   $14.79

                """)
        #expect(
            try sandbox.ok("orders", "stats", "--by", "day", "--utc-offset", "+02:00").stdout == """
                DAY (UTC+02:00)  ORDERS  ITEMS  REVENUE
                2026-03-02            2      3    $7.08
                2026-04-01            1      4   $14.79

                """)
        #expect(
            try sandbox.ok("orders", "stats", "--by", "month", "--utc-offset=-01:00", "--json").stdout
                == #"{"by":"month","currency":"USD","rows":[{"currency":"USD","items":7,"key":"2026-03","orders":3,"#
                + #""revenue":"21.87"}],"utcOffset":"-01:00"}"# + "\n")
        #expect(
            try sandbox.ok("orders", "stats", "--by", "day", "--json").stdout.hasSuffix(#""utcOffset":"+00:00"}"# + "\n"))
        #expect(!(try sandbox.ok("orders", "stats", "--json").stdout.contains("utcOffset")))
        for bad in ["2", "+2:00", "+24:00", "+02:60", "02:00", "UTC"] {
            let refused = try sandbox.run("orders", "stats", "--by", "day", "--utc-offset", bad)
            #expect(refused.status == 64, "\(bad)")
            #expect(
                refused.errorLines.first
                    == "Error: The value '\(bad)' is invalid for '--utc-offset <±hh:mm>': expected an offset from UTC such as +02:00 or -05:30, up to 23:59 either way.",
                "\(bad): \(refused.stderr)")
            #expect(refused.errorLines.filter { $0.hasPrefix("Error:") }.count == 1)
        }
        let alone = try sandbox.run("orders", "stats", "--by", "product", "--utc-offset", "+02:00")
        #expect(alone.status == 64 && alone.errorLines.first?.contains("needs '--by day' or '--by month'") == true)
        let help = try sandbox.ok("orders", "stats", "--help").stdout
        #expect(help.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains("(values: total, day, month, product)"), "\(help)")
        #expect(help.contains("--utc-offset <±hh:mm>"), "\(help)")
    }
}
