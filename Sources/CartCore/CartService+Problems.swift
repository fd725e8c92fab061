extension CartService {
    /// The cart with every problem that stops its checkout now (`CartReport`), read in one
    /// snapshot: what to show beside a cart so that nobody learns of a problem only at
    /// checkout. An empty cart at version 0 if never written.
    ///
    /// - Throws: `CartError.invalidCartID`, `CartError.amountOverflow`, or a storage error.
    public func cartReport(_ cartID: String) throws -> CartReport {
        let id = try Validation.cartID(cartID)
        return try repository.read { storage in try Self.report(of: id, in: storage) }
    }

    static func report(of id: String, in storage: any CartStorageReader) throws -> CartReport {
        let settings = try storage.settings()
        guard let header = try storage.cartHeader(id: id) else {
            return CartReport(cart: try Cart(id: id, version: 0, lines: [], currency: settings.currency), problems: [])
        }
        let lines = try storage.cartLines(cartID: id)
        let problems = Self.problems(
            of: lines, without: try linesWithoutProduct(header, read: lines, in: storage), settings: settings)
        // A line whose quantity is out of range is left out of the cart and named among the
        // problems, so that the rest of the cart can be seen and the line set or deleted.
        let usable =
            problems.contains { $0.code == .damagedLine }
            ? lines.filter(\.hasUsableQuantity) : lines
        return CartReport(
            cart: try cart(id, version: header.version, lines: usable, currency: settings.currency), problems: problems)
    }

    /// The SKUs of the cart's lines whose product is gone. Only asked of the storage when the
    /// header counts more lines than `cartLines` returned: the service counts every line it
    /// writes, so a line that cannot be joined with its product leaves the count above the
    /// lines read.
    static func linesWithoutProduct(_ header: CartHeader?, read lines: [StoredCartLine], in storage: any CartStorageReader)
        throws -> [String]
    {
        guard let header, header.lineCount > lines.count else { return [] }
        return try storage.linesWithoutProduct(cartID: header.id)
    }

    /// Every problem of a cart's lines that stops its checkout under `settings`, in line order:
    /// for each line a quantity out of range (and nothing more about that line), or a product
    /// name no order can keep, an inactive product, more units than the per-line cap, more
    /// than the tracked stock; then each line whose product is gone (`missing`, by SKU); then
    /// more lines than the lines-per-cart cap. The same rules as `add` checks for one line, applied to what is
    /// stored now.
    static func problems(of lines: [StoredCartLine], without missing: [String], settings: StoreSettings)
        -> [CartProblem]
    {
        var problems: [CartProblem] = []
        for line in lines {
            guard line.hasUsableQuantity else {
                problems.append(.damagedLine(sku: line.product.sku, quantity: line.quantity))
                continue
            }
            if let reason = Validation.storableNameProblem(line.product.name) {
                problems.append(.damagedProduct(sku: line.product.sku, name: line.product.name, reason: reason))
            }
            if !line.product.isActive { problems.append(.inactiveProduct(line.product.sku)) }
            if line.quantity > settings.maxLineQuantity {
                problems.append(.lineQuantityCap(sku: line.product.sku, quantity: line.quantity, cap: settings.maxLineQuantity))
            }
            if let stock = line.product.stock, line.quantity > stock {
                problems.append(.insufficientStock(sku: line.product.sku, quantity: line.quantity, available: stock))
            }
        }
        problems += missing.map(CartProblem.unknownProduct)
        let count = lines.count + missing.count
        if count > settings.maxLinesPerCart { problems.append(.lineCountCap(lines: count, cap: settings.maxLinesPerCart)) }
        return problems
    }
}
