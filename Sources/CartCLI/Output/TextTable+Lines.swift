import CartCore

extension TextTable {
    /// One line of a cart or an order, as the `SKU NAME QTY UNIT TOTAL` table shows it.
    typealias ItemLine = (sku: String, name: String, quantity: Int, unitPrice: Money, lineTotal: Money)

    /// The `SKU NAME QTY UNIT TOTAL` table shared by `cart show` and `cart orders show`.
    static func items(_ lines: [ItemLine]) -> TextTable {
        var table = TextTable([.left("SKU"), .left("NAME"), .right("QTY"), .right("UNIT"), .right("TOTAL")])
        for line in lines {
            table.append([
                line.sku, line.name, String(line.quantity), line.unitPrice.formatted, line.lineTotal.formatted,
            ])
        }
        return table
    }

    /// `3 items, subtotal $21.57`.
    static func totals(items: Int, _ label: String, _ amount: Money) -> String {
        "\(Plural.count(items, "item")), \(label) \(amount.formatted)"
    }
}
