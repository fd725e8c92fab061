import CartCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `cart orders …`: the order history.
enum OrderCommands {
    static let group = CommandSpec(
        "orders", abstract: "List orders, newest first, a page at a time.",
        discussion: """
            Lists the orders of every cart unless --cart is given or CART_ID is set. Dates are UTC, \
            as YYYY-MM-DD or an ISO 8601 instant; --since is inclusive and --until exclusive.
            With --csv, one row per order line streams out, with no limit unless --limit is given, \
            in the columns:
            number,placed_at,cart,sku,name,quantity,unit_price,line_total,currency
            """,
        options: [
            since, until,
            .option("--sku", "sku", help: "Only orders with a line of this product."),
            .option(
                "--limit", "n", .integer(1...CartService.maxPageSize), help: "At most this many orders.",
                default: "20"),
            .option(
                "--after", "number", .integer(1...Int.max),
                help: "Continue after this order number (the 'next' of the previous page)."),
            .flag("--oldest-first", help: "List the oldest orders first."),
            .flag("--csv", help: "Stream CSV, one row per order line."),
        ],
        exclusive: [["--csv", "--json"]],
        subcommands: [show, stats],
        action: { try list($0) })

    static let show = CommandSpec(
        "show", abstract: "Show one order with its lines.",
        arguments: [ArgumentSpec("number", .integer(1...Int.max), help: "The order number.")],
        action: { try showOne($0) })

    static let stats = CommandSpec(
        "stats", abstract: "Orders, units sold and revenue, in total or grouped.",
        options: [
            since, until,
            .option(
                "--by", "grouping", .choice(["day", "month", "product"]),
                help: "Group by UTC day, UTC month, or product."),
        ],
        action: { try statistics($0) })

    private static let since = OptionSpec.option(
        "--since", "date", .date, help: "Only orders placed at or after this date or instant.")
    private static let until = OptionSpec.option(
        "--until", "date", .date, help: "Only orders placed before this date or instant.")

    /// The filters common to listing and statistics; the cart only when the person chose one.
    private static func query(_ runner: CommandRunner) -> OrderQuery {
        let invocation = runner.invocation
        return OrderQuery(
            cartID: runner.globals.cartWasChosen ? runner.cartID : nil, placedOnOrAfter: invocation.date("--since"),
            placedBefore: invocation.date("--until"), sku: invocation.text("--sku"),
            sort: invocation.flag("--oldest-first") ? .oldestFirst : .newestFirst,
            after: invocation.integer("--after").map { OrderNumber(rawValue: Int64($0)) },
            limit: invocation.integer("--limit"))
    }

    static func list(_ runner: CommandRunner) throws {
        let service = try runner.service()
        if runner.invocation.flag("--csv") { return try streamCSV(service, query(runner), runner) }
        let page = try service.orders(matching: query(runner))
        if runner.json { return try runner.emit(.orderPage(page)) }
        guard !page.orders.isEmpty else { return try runner.line("No orders.") }
        var table = TextTable([.right("ORDER"), .left("PLACED"), .left("CART"), .right("ITEMS"), .right("TOTAL")])
        for order in page.orders {
            table.append([
                String(order.number.rawValue), UTCCalendar.iso8601(order.placedAt), order.cartID,
                String(order.totalItems), order.total.formatted,
            ])
        }
        try runner.stdout.write(table.rendered(style: runner.style))
        if let next = page.next { try runner.line(runner.style.dim("More: " + nextPageCommand(runner, after: next))) }
    }

    /// The command that lists the next page: every option that chose this page, then `--after`.
    private static func nextPageCommand(_ runner: CommandRunner, after next: OrderNumber) -> String {
        let invocation = runner.invocation
        var words = ["cart", "orders"]
        if let path = invocation.text(GlobalOptions.db.name) { words += [GlobalOptions.db.name, path] }
        if runner.globals.cartWasChosen { words += [GlobalOptions.cart.name, runner.cartID] }
        for name in ["--since", "--until"] {
            if let date = invocation.date(name) { words += [name, dateText(date)] }
        }
        if let sku = invocation.text("--sku") { words += ["--sku", sku] }
        if let limit = invocation.integer("--limit") { words += ["--limit", String(limit)] }
        if invocation.flag("--oldest-first") { words.append("--oldest-first") }
        return ShellQuoting.command(words + ["--after", next.description])
    }

    /// `2026-11-29` for a midnight, else the full instant.
    private static func dateText(_ date: Date) -> String {
        let milliseconds = UTCCalendar.milliseconds(date)
        return milliseconds % 86_400_000 == 0
            ? UTCCalendar.dayKey(milliseconds: milliseconds) : UTCCalendar.iso8601(date)
    }

    /// One CSV row per order line, written as each order is read: memory stays flat however
    /// many orders there are.
    private static func streamCSV(_ service: CartService, _ query: OrderQuery, _ runner: CommandRunner) throws {
        try runner.stdout.write(
            CSVWriter.row([
                "number", "placed_at", "cart", "sku", "name", "quantity", "unit_price", "line_total", "currency",
            ]))
        try service.forEachOrder(matching: query) { order in
            let number = order.number.description
            let placed = UTCCalendar.iso8601(order.placedAt)
            for line in order.lines {
                try runner.stdout.write(
                    CSVWriter.row([
                        number, placed, order.cartID, line.sku, line.name, String(line.quantity),
                        line.unitPrice.decimalString, line.lineTotal.decimalString, order.currency.code,
                    ]))
            }
        }
    }

    static func showOne(_ runner: CommandRunner) throws {
        let number = OrderNumber(rawValue: Int64(runner.invocation.integer("number") ?? 0))
        let order = try runner.service().order(number)
        if runner.json { return try runner.emit(.order(order)) }
        try runner.line(
            runner.style.dim(
                "Order #\(order.number), cart '\(order.cartID)', placed \(UTCCalendar.iso8601(order.placedAt))"))
        let table = TextTable.items(order.lines.map { ($0.sku, $0.name, $0.quantity, $0.unitPrice, $0.lineTotal) })
        try runner.stdout.write(table.rendered(style: runner.style))
        try runner.line(runner.style.bold(TextTable.totals(items: order.totalItems, "total", order.total)))
    }

    static func statistics(_ runner: CommandRunner) throws {
        let grouping = runner.invocation.text("--by").flatMap(OrderStatsGrouping.init(rawValue:)) ?? .total
        var filter = query(runner)
        filter.limit = nil
        let rows = try runner.service().orderStats(matching: filter, groupedBy: grouping)
        if runner.json {
            return try runner.emit(
                .object([
                    ("by", .string(grouping.rawValue)), ("currency", .string(try runner.storeSettings().currency.code)),
                    (
                        "rows",
                        .array(
                            rows.map {
                                .object([
                                    ("key", .string($0.key)), ("orders", .int($0.orders)), ("items", .int($0.items)),
                                    ("revenue", .string($0.revenue.decimalString)),
                                ])
                            })
                    ),
                ]))
        }
        guard !rows.isEmpty else { return try runner.line("No orders.") }
        let title = ["total": "PERIOD", "day": "DAY", "month": "MONTH", "product": "SKU"][grouping.rawValue] ?? "KEY"
        var table = TextTable([.left(title), .right("ORDERS"), .right("ITEMS"), .right("REVENUE")])
        for row in rows {
            table.append([row.key, String(row.orders), String(row.items), row.revenue.formatted])
        }
        try runner.stdout.write(table.rendered(style: runner.style))
    }
}
