import CartCore

/// `cart add|remove|set|delete|clear|show`: one cart, chosen by `--cart`.
enum CartCommands {
    static let add = CommandSpec(
        "add", abstract: "Add units of a product to the cart.",
        arguments: [CommandTree.sku, addedQuantity], options: [CommandTree.ifVersion],
        action: { runner in
            let quantity = try runner[addedQuantity]
            try apply(.add(sku: try runner[CommandTree.sku], quantity: quantity), runner) { update, sku in
                "Added \(quantity) × \(sku): \(units(update.quantity)) in the line"
            }
        })

    static let remove = CommandSpec(
        "remove", abstract: "Take units of a product out of the cart; the line goes when none are left.",
        discussion: "Asking for more units than the line holds takes the whole line, and says how many it held.",
        arguments: [CommandTree.sku, removedQuantity], options: [CommandTree.ifVersion],
        action: { runner in
            let quantity = try runner[removedQuantity]
            try apply(.remove(sku: try runner[CommandTree.sku], quantity: quantity), runner, notingProblems: true) {
                update, sku in
                if update.quantity > 0 { return "Removed \(quantity) × \(sku): \(units(update.quantity)) left" }
                if update.removed < quantity {
                    return "Removed \(sku) from the cart: it held only \(update.removed) of the \(quantity) asked"
                }
                return "Removed \(sku) from the cart"
            }
        })

    static let set = CommandSpec(
        "set", abstract: "Set the quantity of a product in the cart; 0 removes the line.",
        arguments: [CommandTree.sku, newQuantity], options: [CommandTree.ifVersion],
        action: { runner in
            let change = CartChange.setQuantity(sku: try runner[CommandTree.sku], quantity: try runner[newQuantity])
            try apply(change, runner, notingProblems: true) { update, sku in
                if update.quantity > 0, !update.changed { return "\(sku) already has \(units(update.quantity)); nothing changed" }
                if update.quantity > 0 { return "Set \(sku) to \(units(update.quantity))" }
                return update.changed ? "Removed \(sku) from the cart" : "\(sku) was not in the cart; nothing changed"
            }
        })

    static let delete = CommandSpec(
        "delete", abstract: "Remove a product's line from the cart, whatever its quantity.",
        arguments: [CommandTree.sku], options: [CommandTree.ifVersion],
        action: { runner in
            try apply(.deleteLine(sku: try runner[CommandTree.sku]), runner) { _, sku in "Removed \(sku) from the cart" }
        })

    static let clear = CommandSpec(
        "clear", abstract: "Remove every line from the cart.", options: [CommandTree.ifVersion],
        action: { runner in
            try apply(.clear, runner) { update, _ in
                update.changed ? "Cleared the cart" : "The cart was already empty; nothing changed"
            }
        })

    static let show = CommandSpec(
        "show", abstract: "Show the cart's lines and totals at current prices.",
        action: { runner in
            let report = try runner.service().cartReport(runner.cartID)
            if runner.json { return try runner.emit(report) }
            try printCart(report, runner)
        })

    /// `add`'s `<quantity>`. Quantities are strict digits, checked before the store is opened;
    /// the store's own cap is a rule the service checks.
    static let addedQuantity = Argument<Int>("quantity", 1...Int.max, help: "How many units to add.", default: 1)
    /// `remove`'s `<quantity>`.
    static let removedQuantity = Argument<Int>(
        "quantity", 1...Int.max, help: "How many units to remove.", default: 1)
    /// `set`'s `<quantity>`.
    static let newQuantity = Argument<Int>("quantity", 0...Int.max, help: "The new quantity; 0 removes the line.")

    // MARK: - Output

    /// Makes `change` to the cart under `--if-version`, then prints what it did: the cart and
    /// its problems as JSON, read in the change's own unit, or one line for people (`summary`
    /// of the update and its SKU) ending in the cart and version. With `notingProblems`, the
    /// line also comes with each problem the line it left still has (a line lowered but still
    /// above a cap lowered since, or over the stock), which checkout refuses.
    private static func apply(
        _ change: CartChange, _ runner: CommandRunner, notingProblems: Bool = false,
        _ summary: (CartUpdate, String) -> String
    ) throws {
        let service = try runner.service()
        let expected = try runner[CommandTree.ifVersion]
        let (update, report): (CartUpdate, CartReport?)
        if runner.json || notingProblems {
            let result = try service.applyAndReport(change, to: runner.cartID, expectedVersion: expected)
            (update, report) = (result.update, result.report)
        } else {
            (update, report) = (try service.apply(change, to: runner.cartID, expectedVersion: expected), nil)
        }
        if !update.changed { runner.noteNothingChanged() }
        if runner.json, let report { return try runner.emit(report) }
        try runner.line("\(summary(update, update.sku ?? "")) (cart '\(update.cartID)', version \(update.version)).")
        guard let report, update.quantity > 0, let sku = update.sku else { return }
        let lineProblems = report.problems(of: sku)
        for problem in lineProblems {
            try runner.line("Checkout is refused until this is fixed: \(DisplayText.escaped(problem.message))")
        }
        // Fixing the line's problem is not enough when the cart has others.
        let others = report.problems.count - lineProblems.count
        if !lineProblems.isEmpty && others > 0 {
            var words = ["show"]
            if runner.isGiven(GlobalOptions.cart) {
                words = CommandRunner.optionWords(GlobalOptions.cart.spec.name, runner.cartID) + words
            }
            try runner.line(
                "The cart has \(Plural.count(others, "other problem")) that checkout refuses too; to list "
                    + "\(others == 1 ? "it" : "them"): \(try runner.suggestedCommand(words))")
        }
    }

    static func units(_ count: Int) -> String { count == 1 ? "1 unit" : "\(count) units" }

    /// The mark before a line that has a problem, and before each problem in the summary.
    static let problemMark = "!"

    /// The cart as an aligned table with a totals line, or `Cart 'ID' is empty.` (naming it,
    /// so that a mistyped `--cart` shows); when it has
    /// problems, each line that has one is marked and a summary lists them all.
    static func printCart(_ report: CartReport, _ runner: CommandRunner) throws {
        let cart = report.cart
        if cart.isEmpty, report.problems.isEmpty { return try runner.line("Cart '\(cart.id)' is empty.") }
        try runner.line(runner.style.dim("Cart '\(cart.id)', version \(cart.version)"))
        let items = cart.lines.map { ($0.sku, $0.name, $0.quantity, $0.unitPrice, $0.lineTotal) }
        let marks = report.problems.isEmpty ? nil : cart.lines.map { report.problems(of: $0.sku).isEmpty ? "" : problemMark }
        try runner.stdout.write(TextTable.items(items, marks: marks).rendered(style: runner.style))
        try runner.line(runner.style.bold(TextTable.totals(items: cart.totalItems, "subtotal", cart.subtotal)))
        guard !report.problems.isEmpty else { return }
        try runner.line(
            "Checkout is refused until \(report.problems.count == 1 ? "this problem is" : "these \(report.problems.count) problems are") fixed:")
        for problem in report.problems { try runner.line("  \(problemMark) \(DisplayText.escaped(problem.message))") }
    }
}
