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
            as YYYY-MM-DD or an ISO 8601 instant; --since is inclusive and --until exclusive \
            (and after --since, when both are given).
            With --csv, one row per order line streams out, with no limit unless --limit is given, \
            in the columns:
            number,placed_at,cart,sku,name,quantity,unit_price,line_total,currency
            When orders remain past --limit, the command that lists them goes to stderr.
            """,
        options: [since, until, sku, limit, after, oldestFirst, csv],
        exclusive: [[csv, GlobalOptions.json]],
        subcommands: [show, stats],
        action: { try list($0) })

    static let show = CommandSpec(
        "show", abstract: "Show one order with its lines.", arguments: [number],
        action: { try showOne($0) })

    static let stats = CommandSpec(
        "stats", abstract: "Orders, units sold and revenue, in total or grouped.",
        discussion: """
            Days begin at midnight UTC, or at midnight at the --utc-offset given, such as +02:00 for \
            a shop two hours east of UTC; --since and --until stay as written.
            With --sku, the figures are of the whole orders that have a line of that product: \
            --by product splits them, the product's own units and revenue in its row.
            """,
        options: [since, until, sku, grouping, utcOffset],
        action: { try statistics($0) })

    static let since = Option<Date?>("--since", "date", help: "Only orders placed at or after this date or instant.")
    static let until = Option<Date?>("--until", "date", help: "Only orders placed before this date or instant.")
    static let sku = Option<String?>("--sku", "sku", help: "Only orders with a line of this product.")
    /// Its default is the service's, so the page size is written once; `--csv` streams every
    /// order unless it is given, and takes any number, where a page holds at most
    /// `CartService.maxPageSize`.
    static let limit = Option<Int>(
        "--limit", "n", 1...Int.max, help: "At most this many orders (a page holds at most \(CartService.maxPageSize)).",
        default: CartService.defaultPageSize)
    static let after = Option<Int?>(
        "--after", "number", 1...Int.max, help: "Continue after this order number (the 'next' of the previous page).")
    static let oldestFirst = Flag("--oldest-first", help: "List the oldest orders first.")
    static let csv = Flag("--csv", help: "Stream CSV, one row per order line.")
    static let number = Argument<Int>("number", 1...Int.max, help: "The order number.")
    static let grouping = Option<OrderStatsGrouping?>(
        "--by", "grouping", choices: [.total, .day, .month, .product],
        help: "Group by day, month, or product; total, the default, is one row.")
    static let utcOffset = Option<UTCOffset>(
        "--utc-offset", "±hh:mm", utcOffsetHelp: "With --by day or month: begin days at midnight at this offset from UTC.")

    /// The filters common to listing and statistics, with `limit`; the cart only when the
    /// person chose one.
    private static func query(_ runner: CommandRunner, limit: Int?) throws -> OrderQuery {
        OrderQuery(
            cartID: runner.globals.cartWasChosen ? runner.cartID : nil, placedOnOrAfter: try runner[since],
            placedBefore: try runner[until], sku: try runner[sku],
            sort: runner[oldestFirst] ? .oldestFirst : .newestFirst,
            after: try runner[after].map { OrderNumber(rawValue: Int64($0)) }, limit: limit)
    }

    static func list(_ runner: CommandRunner) throws {
        let service = try runner.service()
        if runner[csv] {
            return try streamCSV(service, runner, limit: runner.isGiven(limit) ? try runner[limit] : nil)
        }
        let pageSize = try runner[limit]
        guard pageSize <= CartService.maxPageSize else {
            throw runner.invalidValue(
                String(pageSize), for: limit.spec,
                "a page holds at most \(CartService.maxPageSize) orders; with --csv, any number streams out")
        }
        let page = try service.orders(matching: try query(runner, limit: pageSize))
        if runner.json { return try runner.emit(page) }
        guard !page.orders.isEmpty else { return try runner.line("No orders.") }
        var table = TextTable([.right("ORDER"), .left("PLACED"), .left("CART"), .right("ITEMS"), .right("TOTAL")])
        for order in page.orders {
            table.append([
                String(order.number.rawValue), UTCCalendar.iso8601(order.placedAt), order.cartID,
                String(order.totalItems), order.total.formatted,
            ])
        }
        try runner.stdout.write(table.rendered(style: runner.style))
        if let next = page.next {
            try runner.line(runner.style.dim("More: " + (try nextPageCommand(runner, after: next))))
        }
    }

    /// The command that lists the next page: every option that chose this page, then `--after`.
    private static func nextPageCommand(_ runner: CommandRunner, after next: OrderNumber) throws -> String {
        var words = ["orders"]
        if runner.globals.cartWasChosen {
            words += CommandRunner.optionWords(GlobalOptions.cart.spec.name, runner.cartID)
        }
        for option in [since, until] {
            if let date = try runner[option] { words += [option.spec.name, dateText(date)] }
        }
        if let sku = try runner[sku] { words += CommandRunner.optionWords(Self.sku.spec.name, sku) }
        if runner.isGiven(limit) { words += [limit.spec.name, String(try runner[limit])] }
        if runner[oldestFirst] { words.append(oldestFirst.spec.name) }
        if runner[csv] { words.append(csv.spec.name) }
        return try runner.suggestedCommand(words + [after.spec.name, next.description])
    }

    /// `2026-11-29` for a midnight, else the instant to the millisecond. The queries compare
    /// with the bound rounded up to a whole millisecond, so that millisecond selects the same
    /// orders as the digits the user gave below it.
    private static func dateText(_ date: Date) -> String {
        let milliseconds = UTCCalendar.ceilingMilliseconds(date)
        return milliseconds % 86_400_000 == 0
            ? UTCCalendar.dayKey(milliseconds: milliseconds)
            : UTCCalendar.iso8601(UTCCalendar.date(milliseconds: milliseconds))
    }

    /// One CSV row per order line, written as each order is read: memory stays flat however
    /// many orders there are. The header waits for the query to be accepted, so that a
    /// refused one (an `--after` naming no order) writes nothing. With a `limit`, when more
    /// orders remain, the command for the next ones goes to stderr, since stdout holds only
    /// CSV.
    private static func streamCSV(_ service: CartService, _ runner: CommandRunner, limit: Int?) throws {
        var headerWritten = false
        func writeHeader() throws {
            guard !headerWritten else { return }
            try runner.stdout.write(OrderCSV.header)
            headerWritten = true
        }
        var last: OrderNumber?
        let more = try service.forEachOrder(matching: try query(runner, limit: limit)) { order in
            try writeHeader()
            try runner.stdout.write(OrderCSV.rows(of: order))
            last = order.number
        }
        try writeHeader()
        if more, let last {
            try runner.stderr.write("More: " + (try nextPageCommand(runner, after: last)) + "\n")
        }
    }

    static func showOne(_ runner: CommandRunner) throws {
        let number = OrderNumber(rawValue: Int64(try runner[Self.number]))
        let order = try runner.service().order(number)
        if runner.json { return try runner.emit(order) }
        // The key says which checkout placed it, for a shop that retried one.
        let key = order.idempotencyKey.map { ", key '\(DisplayText.escaped($0))'" } ?? ""
        try runner.line(
            runner.style.dim(
                "Order #\(order.number), cart '\(DisplayText.escaped(order.cartID))', placed \(UTCCalendar.iso8601(order.placedAt))\(key)"))
        let table = TextTable.items(order.lines.map { ($0.sku, $0.name, $0.quantity, $0.unitPrice, $0.lineTotal) })
        try runner.stdout.write(table.rendered(style: runner.style))
        try runner.line(runner.style.bold(TextTable.totals(items: order.totalItems, "total", order.total)))
    }

    static func statistics(_ runner: CommandRunner) throws {
        let grouping = try runner[Self.grouping] ?? .total
        let offset = try runner[utcOffset]
        let rows: [OrderStatsRow]
        do {
            rows = try runner.service().orderStats(
                matching: try query(runner, limit: nil), groupedBy: grouping,
                utcOffset: runner.isGiven(utcOffset) ? offset : nil)
        } catch CartError.amountOverflow {
            let finer = grouping == .total ? "group them with --by" : grouping == .month ? "group them by day" : nil
            throw CommandFailure(
                "The revenue of these orders is too large to add up in 64-bit minor units; "
                    + "take fewer with --since, --until or --sku" + (finer.map { ", or \($0)" } ?? "") + ".")
        } catch CartError.utcOffsetNeedsDays {
            throw UsageError(
                "'\(utcOffset.spec.name)' says where days begin: it needs '--by day' or '--by month'.",
                command: runner.invocation.command)
        }
        if runner.json {
            return try runner.emit(
                OrderStatsReport(grouping: grouping, currency: try runner.storeSettings().currency, rows: rows, utcOffset: offset))
        }
        guard !rows.isEmpty else { return try runner.line("No orders.") }
        // The days' offset in the heading: `DAY (UTC+02:00)`, `MONTH (UTC)`.
        let zone = "UTC" + (offset == .utc ? "" : offset.description)
        let title = ["total": "PERIOD", "day": "DAY (\(zone))", "month": "MONTH (\(zone))", "product": "SKU"][grouping.rawValue] ?? "KEY"
        var table = TextTable([.left(title), .right("ORDERS"), .right("ITEMS"), .right("REVENUE")])
        for row in rows {
            table.append([row.key, String(row.orders), String(row.items), row.revenue.formatted])
        }
        try runner.stdout.write(table.rendered(style: runner.style))
        if let sku = try runner[sku], grouping != .product {
            try runner.line(
                runner.style.dim(
                    "These are whole orders with a line of '\(DisplayText.escaped(sku))'; "
                        + "--by product gives its own units and revenue."))
        }
    }
}
