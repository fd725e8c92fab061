import CartCore
import CartHTTP

/// `cart demo`: a sample catalog to try the tool with.
enum DemoCommand {
    static let spec = CommandSpec(
        "demo", abstract: "Load a small sample catalog (only the products not there yet) and show what to try.",
        createsStore: true, action: { try run($0) })

    /// A product of the sample catalog, its price in hundredths of the currency's major unit.
    private struct Sample {
        let sku: String
        let name: String
        let hundredths: Int64
        let stock: Int?
    }

    private static let samples = [
        Sample(sku: "apple", name: "Apple", hundredths: 129, stock: nil),
        Sample(sku: "banana", name: "Banana", hundredths: 35, stock: nil),
        Sample(sku: "bread", name: "Sourdough bread", hundredths: 449, stock: 20),
        Sample(sku: "butter", name: "Salted butter, 250 g", hundredths: 325, stock: nil),
        Sample(sku: "cheese", name: "Aged cheddar", hundredths: 799, stock: 8),
        Sample(sku: "chocolate", name: "Dark chocolate 70%", hundredths: 299, stock: nil),
        Sample(sku: "coffee", name: "Coffee beans, 1 kg", hundredths: 1899, stock: 5),
        Sample(sku: "eggs", name: "Eggs (dozen)", hundredths: 389, stock: 30),
        Sample(sku: "milk", name: "Whole milk, 1 l", hundredths: 119, stock: nil),
        Sample(sku: "olive-oil", name: "Olive oil, 500 ml", hundredths: 1250, stock: 3),
        Sample(sku: "pasta", name: "Spaghetti, 500 g", hundredths: 189, stock: nil),
        Sample(sku: "tea", name: "Green tea, 20 bags", hundredths: 450, stock: 12),
    ]

    static func run(_ runner: CommandRunner) throws {
        let service = try runner.service()
        runner.dropCreatedStoreNote()
        let currency = try runner.storeSettings().currency
        let existing = Set(try service.products(includeInactive: true).map(\.sku))
        var added = 0
        for sample in samples where !existing.contains(sample.sku) {
            do {
                try service.addProduct(
                    Product(
                        sku: sample.sku, name: sample.name, price: price(sample.hundredths, in: currency),
                        stock: sample.stock))
                added += 1
            } catch CartError.productExists {
                // Another process added it since we looked: the catalog has it, which is the point.
            }
        }
        if runner.json {
            return try runner.emit(CLIJSON.Demo(added: added, alreadyThere: samples.count - added))
        }
        if added == 0 {
            try runner.line("The \(samples.count) sample products are already in the catalog; nothing changed.")
        } else {
            // Where they went, for a first run on the default store.
            let place = runner.globals.isMemory ? "" : " to '\(DisplayText.escaped(runner.displayLocation))'"
            try runner.line("Added \(Plural.count(added, "sample product")) priced in \(currency.code)\(place).")
        }
        try runner.line()
        guard !runner.globals.isMemory else {
            // The next process starts from an empty store: the usual tour would fail at once.
            return try runner.line(
                runner.style.dim("Run 'cart demo' on a store that keeps its data (a file, or postgresql://…) to try more.")
            )
        }
        // Written as this very binary was started, so that each line runs as typed, also
        // after `swift run` when `cart` is not on PATH.
        let steps = try [
            (["products"], "the catalog"), (["add", "apple", "3"], "put 3 apples in your cart"),
            (["add", "coffee"], "and a bag of coffee"), (["show"], "the cart, kept between runs"),
            (["checkout"], "place an order"), (["orders"], "the order history"), (["--help"], "everything else"),
        ].map { words, what in (try runner.suggestedCommand(words, noting: false), what) }
        let width = (steps.map { TerminalWidth.of($0.0) }.max() ?? 0) + 2
        // A --db with a password is left out of every line, and said so once.
        try runner.line("Try next" + (try runner.suggestionsOmitDB() ? " " + CommandRunner.omittedDBNote : "") + ":")
        for (command, what) in steps {
            try runner.line("  " + TextLayout.padded(command, to: width) + runner.style.dim(what))
        }
        try runner.line()
        try runner.line("Open the shop:")
        try runner.line("  " + (try runner.suggestedCommand(["serve"], noting: false)) + "  " + runner.style.dim(shopHint(runner)))
    }

    /// Where to open the shop that `cart serve` would serve: at the address it would listen on
    /// (`CART_LISTEN`, else its default), from this machine when that is every interface; at
    /// the address it prints when it picks a free port or would refuse the variable. An address
    /// beyond loopback with no `CART_ADMIN_TOKEN` is said to need one first, as `cart serve`
    /// refuses to start there without it.
    private static func shopHint(_ runner: CommandRunner) -> String {
        guard let text = try? runner[ServeCommand.listen], let (host, port) = try? ServeCommand.address(text, runner)
        else { return "then visit the address it prints" }
        let local = ["0.0.0.0": "127.0.0.1", "[::]": "[::1]"][host] ?? host
        let visit = port == 0 ? "then visit the address it prints" : "then visit http://\(local):\(port)/"
        let token = try? runner[ServeCommand.adminToken]
        if CartHTTPConfiguration(host: host).listensOnLoopbackOnly || !(token ?? "").isEmpty { return visit }
        return "listening on \(DisplayText.clean(host)) needs an admin token: set CART_ADMIN_TOKEN, " + visit
    }

    /// The sample price in the store currency: hundredths for two decimals, scaled for three
    /// or four, and whole units (¥129) where the currency has fewer.
    private static func price(_ hundredths: Int64, in currency: Currency) -> Money {
        var minorUnits = hundredths
        for _ in 2..<max(2, currency.minorUnitExponent) { minorUnits *= 10 }
        return Money(minorUnits: minorUnits, currency: currency)
    }
}
