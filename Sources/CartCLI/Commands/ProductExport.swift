import CartCore

/// `cart products export`: the whole catalog, inactive products included, in a file that
/// `cart products import` reads back to the same catalog.
enum ProductExport {
    static let spec = CommandSpec(
        "export", abstract: "Write the whole catalog as CSV or JSON that 'products import' reads back.",
        discussion: """
            Every product, inactive ones too, in SKU order. CSV has the columns \
            sku,name,price,stock,active,currency (stock empty when not tracked, active true or false, \
            currency the store's, so that an import into a store of another currency is refused); --json writes {"products": [...]} \
            and, once a FILE is written, prints {"exported": N}. \
            Without --csv or --json, a FILE ending in .json gets JSON and anything else CSV; --json with \
            a FILE ending in .csv, and --csv with one ending in .json, are refused. Without FILE \
            the export goes to stdout; a FILE is replaced only once the whole export is written.
            """,
        arguments: [file], options: [csv], exclusive: [[csv, GlobalOptions.json]],
        action: { try run($0) })

    static let csv = Flag("--csv", help: "Write CSV (the default, unless FILE ends in .json).")
    static let file = Argument<String?>(optional: "file", .path, help: "The file to write; stdout when left out or -.")

    /// The CSV header, in the order of `row(_:)`'s fields.
    static let columns = ["sku", "name", "price", "stock", "active", "currency"]

    static func run(_ runner: CommandRunner) throws {
        let path = try runner[file].flatMap { $0 == "-" ? nil : $0 }
        // The format chosen is the file's too: JSON under a .csv name, or CSV under a .json
        // one, is a trap.
        if runner.json, let path, path.lowercased().hasSuffix(".csv") {
            throw UsageError(
                "--json writes the file as JSON, but '\(DisplayText.clean(path))' ends in .csv: "
                    + "leave out --json for CSV, or name the file .json.",
                command: runner.invocation.command)
        }
        if runner[csv], let path, path.lowercased().hasSuffix(".json") {
            throw UsageError(
                "--csv writes the file as CSV, but '\(DisplayText.clean(path))' ends in .json: "
                    + "leave out --csv for JSON, or name the file .csv.",
                command: runner.invocation.command)
        }
        let asJSON = runner.json || (!runner[csv] && path?.lowercased().hasSuffix(".json") == true)
        let products = try runner.service().products(includeInactive: true)
        // An export reads back with import, which refuses a name or SKU it would not take as
        // input, and trims a SKU's surrounding space into another product's SKU.
        for product in products {
            if let error = StoredDataError.unusableSKU(product.sku) { throw error }
            if let error = StoredDataError.unusableName(product.name, ofProduct: product.sku) { throw error }
            // A name an earlier version let in, which the store can keep but an import refuses.
            if let reason = Product.newNameProblem(product.name) {
                let sku = DisplayText.clean(product.sku)
                throw CommandFailure(
                    "The name of product '\(sku)', '\(DisplayText.clean(product.name))', is one an import refuses "
                        + "(\(DisplayText.clause(reason))); rename it first, with products update --name.")
            }
        }
        var text = ""
        if asJSON {
            text = try runner.json(ProductPage(products: products, next: nil))
        } else {
            text = CSVWriter.row(columns)
            for product in products { text += row(product) }
        }
        guard let path else { return try runner.stdout.write(text) }
        try FileSystem.replace(path, with: Array(text.utf8))
        if runner.json { return try runner.emit(CLIJSON.Exported(exported: products.count)) }
        try runner.line("Exported \(Plural.count(products.count, "product")) to \(DisplayText.clean(path)).")
    }

    /// One CSV row: `apple,Apple,1.29,12,true,USD`.
    static func row(_ product: Product) -> String {
        CSVWriter.row([
            product.sku, product.name, product.price.decimalString, product.stock.map(String.init) ?? "",
            product.isActive ? "true" : "false", product.price.currency.code,
        ])
    }
}
