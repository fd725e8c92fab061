import CartCore

extension TextTable {
    /// One line of a cart or an order, as the `SKU NAME QTY UNIT TOTAL` table shows it.
    typealias ItemLine = (sku: String, name: String, quantity: Int, unitPrice: Money, lineTotal: Money)

    /// The `SKU NAME QTY UNIT TOTAL` table shared by `cart show` and `cart orders show`; with
    /// `marks`, one per line, a first column without a title holds them.
    static func items(_ lines: [ItemLine], marks: [String]? = nil) -> TextTable {
        let columns: [Column] = [.left("SKU"), .shrinking("NAME"), .right("QTY"), .right("UNIT"), .right("TOTAL")]
        var table = TextTable(marks == nil ? columns : [.left("")] + columns)
        for (index, line) in lines.enumerated() {
            let cells = [
                line.sku, line.name, String(line.quantity), line.unitPrice.formatted, line.lineTotal.formatted,
            ]
            table.append(marks.map { [index < $0.count ? $0[index] : ""] + cells } ?? cells)
        }
        return table
    }

    /// `3 items, subtotal $21.57`.
    static func totals(items: Int, _ label: String, _ amount: Money) -> String {
        "\(Plural.count(items, "item")), \(label) \(amount.formatted)"
    }
}
