import CartCore

/// The CSV export of orders, one row per order line, in the columns `cart orders --csv`
/// writes: `number,placed_at,cart,sku,name,quantity,unit_price,line_total,currency`. Fields are
/// quoted as RFC 4180 says; rows end in LF, as the CLI's do.
enum OrderCSV {
    /// The header row.
    static let header = row(["number", "placed_at", "cart", "sku", "name", "quantity", "unit_price", "line_total", "currency"])

    /// The rows of one order.
    static func rows(of order: Order) -> String {
        let number = order.number.description
        let placed = UTCCalendar.iso8601(order.placedAt)
        var text = ""
        for line in order.lines {
            text += row([
                number, placed, order.cartID, line.sku, line.name, String(line.quantity), line.unitPrice.decimalString,
                line.lineTotal.decimalString, order.currency.code,
            ])
        }
        return text
    }

    /// One row, fields quoted where needed, ending in a newline.
    static func row(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\n"
    }

    /// A field, quoted (its quotes doubled) when it holds a comma, quote or line break, or
    /// starts or ends with a space a reader might trim. Looks at Unicode scalars, as CSV
    /// readers do: a quote followed by a combining mark is one `Character`, yet still a quote.
    static func field(_ text: String) -> String {
        let scalars = text.unicodeScalars
        let quoted =
            scalars.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" } || scalars.first == " "
            || scalars.last == " "
        guard quoted else { return text }
        var out = String.UnicodeScalarView()
        out.append("\"")
        for scalar in scalars {
            out.append(scalar)
            if scalar == "\"" { out.append(scalar) }
        }
        out.append("\"")
        return String(out)
    }
}
