/// The CSV export of orders, one row per order line, which `cart orders --csv` and
/// `GET /v1/orders.csv` both write: `number,placed_at,cart,sku,name,quantity,unit_price,
/// line_total,currency` (package access).
package enum OrderCSV {
    /// The header row.
    package static let header = CSVWriter.row([
        "number", "placed_at", "cart", "sku", "name", "quantity", "unit_price", "line_total", "currency",
    ])

    /// The rows of one order.
    package static func rows(of order: Order) -> String {
        let number = order.number.description
        let placed = UTCCalendar.iso8601(order.placedAt)
        var text = ""
        for line in order.lines {
            text += CSVWriter.row([
                number, placed, order.cartID, line.sku, line.name, String(line.quantity), line.unitPrice.decimalString,
                line.lineTotal.decimalString, order.currency.code,
            ])
        }
        return text
    }
}
