/// Every command of the tool, as declared by the command groups.
enum CommandTree {
    /// `cart help [<command> ...]` is answered by the parser itself.
    static let helpCommandName = "help"

    /// The tool itself, with all its commands in the order help lists them.
    static let root = CommandSpec(
        "cart",
        abstract: "A persistent shopping cart: a product catalog, carts, checkout and order history.",
        discussion: """
            Data is kept in a store, a SQLite file unless --db names another, so carts and orders \
            survive between runs. \
            Start with 'cart demo' to load sample products.
            """,
        subcommands: [
            ProductCommands.group,
            CartCommands.add, CartCommands.remove, CartCommands.set, CartCommands.delete, CartCommands.clear,
            CartCommands.show, WatchCommand.spec, CheckoutCommand.spec,
            CartAdminCommands.carts, CartAdminCommands.merge, CartAdminCommands.prune,
            OrderCommands.group, DatabaseCommands.group, ServeCommand.spec, DemoCommand.spec,
            CommandSpec(
                helpCommandName, abstract: "Show help for a command.",
                arguments: [
                    ArgumentSpec("command", help: "The command and its subcommands.", optional: true, repeating: true)
                ]
            ),
        ])

    /// `--if-version <n>`, shared by every cart mutation.
    static let ifVersion = Option<Int?>(
        "--if-version", "n", 0...Int.max,
        help: "Only change the cart if it is still at this version (optimistic concurrency).")

    /// `<sku>`, shared by the commands that name a product.
    static let sku = Argument<String>("sku", help: "The product's SKU.")
}
