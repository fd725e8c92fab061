import CartCore

/// `cart carts|merge|prune`: commands over many carts.
enum CartAdminCommands {
    static let carts = CommandSpec(
        "carts", abstract: "List the stored carts, in ID order.",
        discussion: """
            Checkouts leave their carts behind, empty: --non-empty lists only carts with lines. --limit \
            shows one page, with the command for the next. A cart holding a line whose quantity another \
            client stored out of range is marked '!', with '?' for its items, and named after the table: \
            set or delete that line, or clear the cart, to mend it.
            """,
        options: [nonEmpty, limit, after],
        action: { try list($0) })

    static let nonEmpty = Flag("--non-empty", help: "Only carts that have lines.")
    static let limit = Option<Int?>("--limit", "n", 1...CartService.maxPageSize, help: "At most this many carts (a page).")
    static let after = Option<String?>("--after", "id", help: "Continue after this cart (the 'next' of the previous page).")

    static let merge = CommandSpec(
        "merge", abstract: "Move every line of another cart into the current one (--cart).",
        discussion: """
            Quantities of the same product add up; a line that would pass the per-line cap or the stock is \
            clamped, and one that cannot be added is left out; each is reported. The other cart ends empty. \
            A cart with no lines merges nothing; one that was never written is an error (exit 1). \
            --if-version merges only while the current cart is at that version.
            """,
        arguments: [from],
        options: [CommandTree.ifVersion],
        action: { try mergeCarts($0) })

    static let from = Argument<String>("from", help: "The cart to empty into the current one.")

    static let prune = CommandSpec(
        "prune", abstract: "Delete carts not changed for a number of days; orders are kept.",
        options: [olderThan],
        action: { try pruneCarts($0) })

    /// At least one day: 0 would delete every cart, even one in use now.
    static let olderThan = Option<Int>(
        required: "--older-than", "days", 1...36_500,
        help: "Delete carts unchanged for more than this many days, from 1 to 36500.")

    static func list(_ runner: CommandRunner) throws {
        let page = try runner.service().carts(
            matching: CartQuery(nonEmpty: runner[nonEmpty], after: try runner[after], limit: try runner[limit]))
        if runner.json { return try runner.emit(page) }
        guard !page.carts.isEmpty else { return try runner.line("No carts.") }
        // A cart whose units cannot be counted is marked, as a cart's lines with a problem are,
        // and listed after the table with the command that names its line.
        let flagged = page.carts.filter { $0.problem != nil }
        let columns: [TextTable.Column] = [.left("CART"), .right("LINES"), .right("ITEMS"), .right("VERSION"), .left("UPDATED")]
        var table = TextTable(flagged.isEmpty ? columns : [.left("")] + columns)
        for cart in page.carts {
            let cells = [
                cart.id, String(cart.lineCount), cart.totalItems.map(String.init) ?? "?", String(cart.version),
                UTCCalendar.iso8601(cart.updatedAt),
            ]
            table.append(flagged.isEmpty ? cells : [cart.problem == nil ? "" : CartCommands.problemMark] + cells)
        }
        try runner.stdout.write(table.rendered(style: runner.style))
        if !flagged.isEmpty {
            try runner.line(
                "\(flagged.count == 1 ? "A cart holds" : "\(flagged.count) carts hold") a line whose quantity this version "
                    + "cannot use; setting or deleting that line, or clearing the cart, mends it:")
        }
        for cart in flagged {
            let show = CommandRunner.optionWords(GlobalOptions.cart.spec.name, cart.id) + ["show"]
            try runner.line(
                "  \(CartCommands.problemMark) '\(DisplayText.escaped(cart.id))': \(DisplayText.escaped(cart.problem ?? "")); "
                    + "to see which line: \(try runner.suggestedCommand(show))")
        }
        if let next = page.next {
            try runner.line(runner.style.dim("More: " + (try nextPageCommand(runner, after: next))))
        }
    }

    /// The command that lists the next page: every option that chose this page, then `--after`.
    private static func nextPageCommand(_ runner: CommandRunner, after next: String) throws -> String {
        var words = ["carts"]
        if runner[nonEmpty] { words.append(nonEmpty.spec.name) }
        if let limit = try runner[limit] { words += [Self.limit.spec.name, String(limit)] }
        return try runner.suggestedCommand(words + CommandRunner.optionWords(after.spec.name, next))
    }

    static func mergeCarts(_ runner: CommandRunner) throws {
        let source = try runner[from]
        let result = try runner.service().merge(
            from: source, into: runner.cartID, expectedVersion: try runner[CommandTree.ifVersion])
        // A source without lines leaves both carts as they were.
        let changedNothing = result.mergedLines == 0 && result.adjustments.isEmpty
        if changedNothing { runner.noteNothingChanged() }
        if runner.json {
            return try runner.emit(result)
        }
        if changedNothing {
            // Not an error: an anonymous cart that was never filled is the common case at sign-in.
            return try runner.line(
                "Nothing to merge: cart '\(DisplayText.clean(source))' has no lines; '\(result.cart.id)' is unchanged.")
        }
        try runner.line(
            "Merged \(Plural.count(result.mergedLines, "line")) from '\(DisplayText.clean(source))' into "
                + "'\(result.cart.id)' (version \(result.cart.version))."
        )
        for adjustment in result.adjustments {
            try runner.line("  \(adjustment)")
        }
    }

    static func pruneCarts(_ runner: CommandRunner) throws {
        let days = try runner[olderThan]
        // The service's clock says what now is, as it does for the times it stamps on carts.
        let deleted = try runner.service().prune(notChangedFor: .seconds(days * 86_400))
        if deleted == 0 { runner.noteNothingChanged() }
        if runner.json { return try runner.emit(CLIJSON.Pruned(deleted: deleted)) }
        let period = days == 1 ? "day" : "\(days) days"
        try runner.line("Deleted \(Plural.count(deleted, "cart")) not changed in the last \(period).")
    }
}
