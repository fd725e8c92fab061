import CartCore

/// `cart checkout`: turn the cart into an order.
enum CheckoutCommand {
    static let key = Option<String?>("--key", "key", help: "An idempotency key that makes retries safe.")
    static let expectedTotal = Option<String?>(
        "--expect-total", "amount",
        help: "Place the order only at this total (the one the customer saw), so a price changed meanwhile is not charged.")

    static let spec = CommandSpec(
        "checkout", abstract: "Place an order for the cart and empty it.",
        discussion: """
            With --key, running the same checkout again (after a timeout, say) prints the order the key \
            already placed and changes nothing.
            """,
        options: [key, expectedTotal, CommandTree.ifVersion],
        action: { try run($0) })

    static func run(_ runner: CommandRunner) throws {
        let result = try runner.service().checkout(
            runner.cartID, idempotencyKey: try runner[key], expectedVersion: try runner[CommandTree.ifVersion],
            expectedTotal: try runner.money(expectedTotal))
        if result.replayed { runner.noteNothingChanged() }
        if runner.json { return try runner.emit(result) }
        let order = result.order
        let items = Plural.count(order.totalItems, "item")
        if result.replayed {
            try runner.line(
                "Order #\(order.number) was already placed with this key for cart '\(order.cartID)': "
                    + "\(items), total \(order.total.formatted). Nothing changed.")
            // What was added since is in no order, which the line above could be read to say.
            let cart = try runner.service().cart(order.cartID)
            if !cart.isEmpty {
                try runner.line(
                    "The cart holds \(Plural.count(cart.totalItems, "item")) added since, not in that order; "
                        + "check out with another key (or none) to order them.")
            }
        } else {
            try runner.line(
                "Placed order #\(order.number) for cart '\(order.cartID)': \(items), total "
                    + runner.style.bold(order.total.formatted) + ".")
        }
    }
}
