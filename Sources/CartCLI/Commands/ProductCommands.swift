import CartCore
import CartInMemory

/// `cart products …`: the catalog.
enum ProductCommands {
    static let group = CommandSpec(
        "products", abstract: "List the catalog, or change it with a subcommand.",
        discussion: """
            Lists the products for sale in SKU order (all of them with --all); --search keeps those whose \
            SKU or name contains the text, in any case, and --limit shows one page, with the command for \
            the next.
            """,
        options: [all, search, limit, after], subcommands: [show, add, update, delete, importFile, ProductExport.spec],
        action: { try list($0) })

    static let delete = CommandSpec(
        "delete", abstract: "Delete a product that no cart holds; orders keep their lines.",
        arguments: [CommandTree.sku],
        action: { try deleteOne($0) })

    static let show = CommandSpec(
        "show", abstract: "Show one product, active or not.", arguments: [CommandTree.sku],
        action: { try showOne($0) })

    static let add = CommandSpec(
        "add", abstract: "Add a product to the catalog.", arguments: [CommandTree.sku],
        options: [name, price, stock, addedInactive], createsStore: true,
        action: { try addOne($0) })

    static let update = CommandSpec(
        "update", abstract: "Change a product; what is not given stays as it is.", arguments: [CommandTree.sku],
        options: [newName, newPrice, newStock, addStock, removeStock, noStock, active, inactive],
        exclusive: [[newStock, addStock, removeStock, noStock], [active, inactive]],
        action: { try updateOne($0) })

    static let importFile = CommandSpec(
        "import", abstract: "Create or update products from a CSV or JSON file, all or nothing.",
        discussion: """
            A column or key that is left out keeps what the catalog holds, so a price list 'sku,price' \
            changes prices and nothing else; a new product needs a name and a price, and is active with \
            stock not tracked unless the file says otherwise. \
            CSV (RFC 4180): a header with 'sku' and any of 'name', 'price', 'stock', 'active', 'currency', in any order; \
            quoted fields may hold commas, quotes and line breaks; an empty stock means not tracked; active \
            is true, false, yes, no, 1 or 0. \
            JSON: an array of {"sku", "name"?, "price"?, "stock"?, "active"?, "currency"?} objects, price a \
            string such as "12.99", stock null for not tracked and currency, if given, the store's, or the \
            {"products": [...]} object that 'cart products export --json' writes. \
            A file starting with '[' or '{' is read as JSON. Either may start with a UTF-8 byte order mark. \
            The first error names the line (CSV) or index (JSON), and then nothing is imported.
            """,
        arguments: [file],
        createsStore: true,
        action: { try importProducts($0) })

    static let all = Flag("--all", help: "Include inactive products.")
    static let search = Option<String?>("--search", "text", help: "Only products whose SKU or name contains this text.")
    static let limit = Option<Int?>(
        "--limit", "n", 1...CartService.maxPageSize, help: "At most this many products (a page).")
    static let after = Option<String?>(
        "--after", "sku", help: "Continue after this SKU (the 'next' of the previous page).")
    static let name = Option<String>(required: "--name", "name", help: "The name shown to customers.")
    static let price = Option<String>(
        required: "--price", "amount", .amount, help: "The unit price in the store currency, such as 12.99.")
    static let stock = Option<Int?>(
        "--stock", "n", 0...Int.max, help: "Units in stock; without it stock is not tracked.")
    static let newName = Option<String?>("--name", "name", help: "A new name.")
    static let newPrice = Option<String?>("--price", "amount", .amount, help: "A new unit price, such as 12.99.")
    static let newStock = Option<Int?>("--stock", "n", 0...Int.max, help: "A new number of units in stock.")
    static let addStock = Option<Int?>(
        "--add-stock", "n", 1...Int.max,
        help: "Add units to the stock (a delivery); what checkouts take meanwhile is kept.")
    static let removeStock = Option<Int?>(
        "--remove-stock", "n", 1...Int.max, help: "Take units from the stock (a count of breakage); not below zero.")
    static let noStock = Flag("--no-stock", help: "Stop tracking stock.")
    static let active = Flag("--active", help: "Put the product on sale.")
    static let inactive = Flag("--inactive", help: "Take the product off sale; carts holding it cannot check out.")
    static let addedInactive = Flag(
        "--inactive", help: "Add the product off sale, to put on sale later with 'products update --active'.")
    static let file = Argument<String>("file", .path, help: "The CSV or JSON file; - reads standard input.")

    // MARK: - Actions

    static func list(_ runner: CommandRunner) throws {
        let includeInactive = runner[all]
        let page = try runner.service().products(
            matching: ProductQuery(
                includeInactive: includeInactive, text: try runner[search], after: try runner[after],
                limit: try runner[limit]))
        if runner.json { return try runner.emit(page) }
        guard !page.products.isEmpty else {
            if try runner[search] != nil || runner.isGiven(after) { return try runner.line("No products match.") }
            return try runner.line("No products. Add one with 'cart products add' or load samples with 'cart demo'.")
        }
        var columns: [TextTable.Column] = [.left("SKU"), .shrinking("NAME"), .right("PRICE"), .right("STOCK")]
        if includeInactive { columns.append(.left("ACTIVE")) }
        var table = TextTable(columns)
        for product in page.products {
            var row = [product.sku, product.name, product.price.formatted, product.stock.map(String.init) ?? "-"]
            if includeInactive { row.append(product.isActive ? "yes" : "no") }
            table.append(row)
        }
        try runner.stdout.write(table.rendered(style: runner.style))
        if let next = page.next {
            try runner.line(runner.style.dim("More: " + (try nextPageCommand(runner, after: next))))
        }
    }

    /// The command that lists the next page: every option that chose this page, then `--after`.
    private static func nextPageCommand(_ runner: CommandRunner, after next: String) throws -> String {
        var words = ["products"]
        if runner[all] { words.append(all.spec.name) }
        if let text = try runner[search] { words += CommandRunner.optionWords(search.spec.name, text) }
        if let limit = try runner[limit] { words += [Self.limit.spec.name, String(limit)] }
        return try runner.suggestedCommand(words + CommandRunner.optionWords(after.spec.name, next))
    }

    static func showOne(_ runner: CommandRunner) throws {
        let product = try runner.service().product(try runner[CommandTree.sku])
        if runner.json { return try runner.emit(product) }
        // Stored text is escaped: another client may have written a terminal escape into it.
        try runner.line("SKU:     \(DisplayText.escaped(product.sku))")
        try runner.line("Name:    \(DisplayText.escaped(product.name))")
        try runner.line("Price:   \(product.price.formatted)")
        try runner.line("Stock:   \(product.stock.map(String.init) ?? "not tracked")")
        try runner.line("Active:  \(product.isActive ? "yes" : "no")")
    }

    static func addOne(_ runner: CommandRunner) throws {
        // Checked before the store is opened, which creates it: a refused product creates nothing.
        let new = Product(
            sku: try runner[CommandTree.sku], name: try runner[name], price: try runner.money(price),
            isActive: !runner[addedInactive], stock: try runner[stock])
        let product = try priced(try runner[price], as: price.spec, runner) {
            _ = try CartService.validatedNew(new, settings: try runner.storeSettings())
            return try inStoreCurrency { try runner.service().addProduct(new) }
        }
        if runner.json { return try runner.emit(product) }
        try runner.line("Added \(describe(product)).")
    }

    static func updateOne(_ runner: CommandRunner) throws {
        var update = ProductUpdate(name: try runner[newName])
        if let stock = try runner[newStock] { update.stock = .tracked(stock) }
        if let units = try runner[addStock] { update.stockChange = units }
        if let units = try runner[removeStock] { update.stockChange = -units }
        if runner[noStock] { update.stock = .untracked }
        if runner[active] { update.isActive = true }
        if runner[inactive] { update.isActive = false }
        guard update != ProductUpdate() || runner.isGiven(newPrice) else {
            let names = Self.update.options.map(\.name)
            throw UsageError(
                "Nothing to update: give \(names.dropLast().joined(separator: ", ")) or \(names.last ?? "").",
                command: runner.invocation.command)
        }
        update.price = try runner.money(newPrice)
        let service = try runner.service()
        let sku = try runner[CommandTree.sku]
        // Read first only to tell the user, and the exit status, that nothing changed.
        let before = try? service.product(sku)
        let product = try priced(try runner[newPrice], as: newPrice.spec, runner) {
            try inStoreCurrency { try service.updateProduct(sku, with: update) }
        }
        let unchanged = product == before
        if unchanged { runner.noteNothingChanged() }
        if runner.json { return try runner.emit(product) }
        try runner.line(unchanged ? "Nothing changed: \(describe(product))." : "Updated \(describe(product)).")
    }

    static func deleteOne(_ runner: CommandRunner) throws {
        let product = try runner.service().deleteProduct(try runner[CommandTree.sku])
        if runner.json { return try runner.emit(product) }
        try runner.line("Deleted \(describe(product)). Orders keep their lines.")
    }

    static func importProducts(_ runner: CommandRunner) throws {
        let argument = try runner[file]
        // `-` is standard input, as for most tools; its lines are named `stdin:3`.
        let path = argument == "-" ? "stdin" : argument
        let bytes = try argument == "-" ? FileSystem.standardInput() : FileSystem.contents(of: path)
        let currency = try runner.storeSettings().currency
        let storeIsNew = try !runner.storeExists()
        let newStoreCommand: ((Currency) -> String)? =
            storeIsNew
            ? { currency in
                (try? runner.suggestedCommand(["db", "init", DatabaseCommands.currency.spec.name, currency.code]))
                    ?? "cart db init --currency \(currency.code)"
            } : nil
        let file = try ProductFileReader(name: path, currency: currency, newStoreCommand: newStoreCommand).read(bytes)
        let summary: CartService.ImportSummary
        do {
            if storeIsNew {
                // A store is created only for an import its rules accept: the import runs
                // first on an empty store in memory, which refuses what the new store would.
                _ = try CartService(repository: InMemoryCartRepository(settings: .defaults)).importProducts(file.items)
            }
            summary = try inStoreCurrency { try runner.service().importProducts(file.items) }
            if summary.created == 0 && summary.updated == 0 { runner.noteNothingChanged() }
        } catch CartError.invalidImportItem(let index, let reason) {
            let message = currencyChanged(reason)?.message ?? file.quotingPrice(of: index, in: reason).description
            throw CommandFailure("\(file.location(ofItem: index)): \(message)")
        } catch CartError.duplicateImportSKU(let sku, let first, let index) {
            throw CommandFailure(
                "\(file.location(ofItem: index)): SKU '\(DisplayText.clean(sku))' already appears at "
                    + "\(file.position(ofItem: first)).")
        }
        if runner.json {
            return try runner.emit(summary)
        }
        let total = summary.created + summary.updated + summary.unchanged
        try runner.line(
            "Imported \(Plural.count(total, "product")) from \(DisplayText.clean(path)): "
                + "\(summary.created) created, \(summary.updated) updated\(changes(summary.changed)), "
                + "\(summary.unchanged) unchanged.")
    }

    /// ` (3 prices, 1 stock level)`: the fields an import changed, or nothing when none did.
    private static func changes(_ changed: CartService.ImportSummary.Changes) -> String {
        let counts = [
            (changed.names, "name"), (changed.prices, "price"), (changed.stock, "stock level"),
            (changed.active, "active flag"),
        ]
        let parts = counts.filter { $0.0 > 0 }.map { Plural.count($0.0, $0.1) }
        return parts.isEmpty ? "" : " (\(parts.joined(separator: ", ")))"
    }

    /// Runs `body`, in which the service may refuse the price typed as `text` for `option`
    /// (above the cap, say); that refusal names the option as any other bad value of it does.
    private static func priced<Result>(
        _ text: String?, as option: OptionSpec, _ runner: CommandRunner, _ body: () throws -> Result
    ) throws -> Result {
        do {
            return try body()
        } catch CartError.invalidAmount(let amount, let reason) {
            throw runner.invalidValue(text ?? amount, for: option, reason)
        }
    }

    /// Runs `body`, whose amounts were read in the store's currency when the command began.
    private static func inStoreCurrency<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let error as CartError {
            throw currencyChanged(error) ?? error
        }
    }

    /// For a currency mismatch, which an amount read in the store's currency meets only when
    /// another process changed the currency meanwhile, a failure that says so.
    private static func currencyChanged(_ error: CartError) -> CommandFailure? {
        guard case .currencyMismatch(let read, let store) = error else { return nil }
        return CommandFailure(
            "The store's currency changed from \(read) to \(store) while this command ran; run it again with amounts in \(store).")
    }

    /// `apple (Apple) at $1.29, 12 in stock`.
    static func describe(_ product: Product) -> String {
        var text = "\(DisplayText.escaped(product.sku)) (\(DisplayText.escaped(product.name))) at \(product.price.formatted), "
        text += product.stock.map { "\($0) in stock" } ?? "stock not tracked"
        if !product.isActive { text += ", inactive" }
        return text
    }
}
