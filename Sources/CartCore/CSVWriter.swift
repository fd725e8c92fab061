/// Writes CSV rows as RFC 4180 describes, except that rows end in LF rather than CRLF so the
/// output suits Unix pipes; readers that follow the RFC accept both. For the front ends'
/// exports (package access).
package enum CSVWriter {
    /// One row, fields quoted where needed, ending in a newline.
    package static func row(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\n"
    }

    /// A field quoted (with its quotes doubled) when it holds a comma, quote or line break,
    /// or starts or ends with a space that a reader might trim.
    ///
    /// Works on Unicode scalars, as CSV readers do: a quote followed by a combining mark is one
    /// `Character` that is not equal to `"`, yet its quote byte still ends a quoted field.
    package static func field(_ text: String) -> String {
        let scalars = text.unicodeScalars
        let needsQuotes =
            scalars.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }
            || scalars.first == " " || scalars.last == " "
        guard needsQuotes else { return text }
        var quoted = String.UnicodeScalarView()
        quoted.append("\"")
        for scalar in scalars {
            if scalar == "\"" { quoted.append(scalar) }
            quoted.append(scalar)
        }
        quoted.append("\"")
        return String(quoted)
    }
}

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
