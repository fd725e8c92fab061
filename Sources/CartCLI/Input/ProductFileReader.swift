import CartCore
import StrictJSON

/// Reads a product import file, CSV or JSON, into import items priced in the store currency.
///
/// A file whose first non-blank character (after an optional byte order mark) is `[` or `{`
/// is JSON; anything else is CSV. Every error is a `CommandFailure` naming the file and the
/// line (CSV) or index (JSON).
struct ProductFileReader {
    /// The file name as given, for messages.
    let name: String
    /// The store currency, which fixes how many decimals a price may have.
    let currency: Currency
    /// When the import would make the store: the command that makes one in a currency, which a
    /// file wholly in another currency is told to run first.
    var newStoreCommand: ((Currency) -> String)?

    /// The products in the file, in file order.
    func read(_ bytes: [UInt8]) throws -> ProductFile {
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let first = bytes[start...].first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        let isJSON = first == UInt8(ascii: "[") || first == UInt8(ascii: "{")
        // The byte order mark some editors write is skipped, as RFC 8259 §8.1 allows a JSON
        // reader to.
        return isJSON ? try readJSON(Array(bytes[start...])) : try readCSV(bytes)
    }

    /// How deep a product file may nest. Its products lie three levels down (a wrapper object,
    /// its array, the products); far deeper nesting is refused rather than risking the stack.
    static let maxJSONDepth = 256

    // MARK: - CSV

    private func readCSV(_ bytes: [UInt8]) throws -> ProductFile {
        let records: [CSVReader.Record]
        do {
            records = try CSVReader(bytes).records()
        } catch {
            throw failure("\(error.line)", error.message)
        }
        guard let header = records.first else {
            throw failure("1", "The file is empty; expected a header line such as 'sku,name,price'.")
        }
        let columns = try csvColumns(header)
        var items: [ProductImport] = []
        var lines: [Int] = []
        var prices: [String?] = []
        items.reserveCapacity(records.count)
        lines.reserveCapacity(records.count)
        prices.reserveCapacity(records.count)
        for record in records.dropFirst() {
            let at = "\(record.line)"
            guard record.fields.count == header.fields.count else {
                throw failure(
                    at, "Expected \(header.fields.count) fields as in the header, found \(record.fields.count).")
            }
            let field = { (column: String) -> String? in columns[column].map { record.fields[$0] } }
            // Before the price, which is read with the currency's digits. An empty cell, as a
            // spreadsheet leaves it, says nothing: the amounts are the store's.
            if let column = columns["currency"], case let code = record.fields[column].trimmingSpaces(), !code.isEmpty {
                try checkCurrency(code, at: at, named: "Currency") {
                    records.dropFirst().compactMap { $0.fields.indices.contains(column) ? $0.fields[column] : nil }
                }
            }
            var item = ProductImport(sku: field("sku") ?? "", name: field("name"))
            if let text = field("price") { item.price = try price(text, at: at) }
            if let text = field("stock") {
                item.stock =
                    text.isEmpty
                    ? .untracked
                    : .tracked(try stock(text, at: at, named: "Stock '\(DisplayText.clean(text))'", orElse: "empty"))
            }
            if let text = field("active") {
                guard let active = Self.csvFlags[text.trimmingSpaces().lowercased()] else {
                    throw failure(
                        at, "Active '\(DisplayText.clean(text))' must be one of true, false, yes, no, 1 or 0.")
                }
                item.isActive = active
            }
            items.append(item)
            lines.append(record.line)
            prices.append(field("price"))
        }
        return ProductFile(name: name, format: .csv, items: items, lines: lines, prices: prices)
    }

    /// The words an `active` cell may hold, in any case.
    private static let csvFlags = ["true": true, "false": false, "yes": true, "no": false, "1": true, "0": false]

    /// The columns a CSV header may name.
    static let csvColumnNames = ["sku", "name", "price", "stock", "active", "currency"]

    /// Where each known column is; the header must hold sku, may hold the other known columns
    /// in any order, and nothing else.
    private func csvColumns(_ header: CSVReader.Record) throws -> [String: Int] {
        var columns: [String: Int] = [:]
        for (index, raw) in header.fields.enumerated() {
            let column = raw.trimmingSpaces().lowercased()
            guard Self.csvColumnNames.contains(column) else {
                throw failure(
                    "\(header.line)",
                    "Unknown column '\(DisplayText.clean(raw))'; expected sku and any of name, price, stock, active, currency.")
            }
            guard columns.updateValue(index, forKey: column) == nil else {
                throw failure("\(header.line)", "The column '\(column)' appears twice.")
            }
        }
        guard columns["sku"] != nil else {
            throw failure(
                "\(header.line)", "The header has no 'sku' column; expected sku and any of name, price, stock, active, currency.")
        }
        return columns
    }

    /// Refuses a currency `code` other than the store's: the file's amounts are in it. When the
    /// import would make the store and `fileCodes()` (every code the file names) are all that
    /// currency, says how to make the store in it.
    private func checkCurrency(_ code: String, at: String, named: String, fileCodes: () -> [String]) throws {
        if currency.isNamed(by: code) { return }
        guard let fileCurrency = try? Currency(code: code) else {
            throw failure(
                at, "\(named) '\(DisplayText.clean(code))' is not a currency code; the store currency is \(currency.code).")
        }
        var message = "\(named) is '\(DisplayText.clean(code))', not the store currency \(currency.code)."
        let onlyThat = fileCodes().allSatisfy { code in
            code.trimmingSpaces().isEmpty || (try? Currency(code: code.trimmingSpaces())) == fileCurrency
        }
        if let newStoreCommand, onlyThat {
            message += " To import it into a new store in \(fileCurrency.code), make the store first: "
                + newStoreCommand(fileCurrency)
        }
        throw failure(at, message)
    }

    // MARK: - JSON

    private func readJSON(_ bytes: [UInt8]) throws -> ProductFile {
        let document: JSONValue
        do {
            document = try JSONReader.parse(bytes, maxDepth: Self.maxJSONDepth)
        } catch {
            let reason = DisplayText.clean(error.reason)
            throw CommandFailure(
                "\(DisplayText.clean(name)):\(error.line):\(error.column): \(reason.prefix(1).uppercased() + reason.dropFirst()).")
        }
        let elements = try productArray(document)
        var items: [ProductImport] = []
        var prices: [String?] = []
        items.reserveCapacity(elements.count)
        prices.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            let at = " index \(index)"
            guard case .object(let members) = element else { throw failure(at, "Expected an object.") }
            for member in members where !["sku", "name", "price", "stock", "active", "currency"].contains(member.key) {
                throw failure(
                    at,
                    "Unknown key \"\(DisplayText.clean(member.key))\"; expected sku, name, price, stock, active, "
                        + "currency.")
            }
            // What 'cart products --json' writes beside each price; it must be the store's.
            switch element["currency"] {
            case nil: break
            case .string(let code)?:
                try checkCurrency(code, at: at, named: "\"currency\"") {
                    elements.compactMap { element in
                        if case .string(let code)? = element["currency"] { code } else { nil }
                    }
                }
            default: throw failure(at, "\"currency\" must be a string such as \"\(currency.code)\".")
            }
            guard case .string(let sku)? = element["sku"] else { throw failure(at, "\"sku\" must be a string.") }
            var item = ProductImport(sku: sku)
            switch element["name"] {
            case nil: break
            case .string(let text)?: item.name = text
            default: throw failure(at, "\"name\" must be a string.")
            }
            let priceText: String?
            switch element["price"] {
            case nil: priceText = nil
            case .string(let text)?, .number(let text)?: priceText = text
            default: throw failure(at, "\"price\" must be a decimal string such as \"12.99\".")
            }
            item.price = try priceText.map { try price($0, at: at) }
            switch element["stock"] {
            case nil: break
            case .null?: item.stock = .untracked
            case .number(let text)?:
                item.stock = .tracked(try stock(text, at: at, named: "\"stock\" \(text)", orElse: "null"))
            default: throw failure(at, "\"stock\" must be a whole number of at least 0, or null.")
            }
            switch element["active"] {
            case nil: break
            case .bool(let value)?: item.isActive = value
            default: throw failure(at, "\"active\" must be true or false.")
            }
            items.append(item)
            prices.append(priceText)
        }
        return ProductFile(name: name, format: .json, items: items, lines: [], prices: prices)
    }

    /// The array of products: the document itself, or the one member of the object that
    /// `cart products --json` writes, so that its output imports as it is.
    private func productArray(_ document: JSONValue) throws -> [JSONValue] {
        if case .array(let items) = document { return items }
        // `next` is the cursor `cart products --json` writes beside a page; it names no product.
        if case .object(let members) = document, members.contains(where: { $0.key == "products" }) {
            if let other = members.first(where: { $0.key != "products" && $0.key != "next" }) {
                throw failure(nil, "Unknown key \"\(DisplayText.clean(other.key))\" beside \"products\"; only \"next\" may be there.")
            }
            guard case .array(let items)? = document["products"] else {
                throw failure(nil, #""products" must be an array of products."#)
            }
            return items
        }
        throw failure(nil, #"Expected a JSON array of products, or an object {"products": [...]}."#)
    }

    // MARK: - Shared

    /// A stock level: a whole number of at least 0, named `label` in errors, which say what
    /// else the format allows (`orElse`).
    private func stock(_ text: String, at place: String, named label: String, orElse absent: String) throws -> Int {
        switch ValueKind.integer(text, in: 0...Int.max) {
        case .success(let value): return value
        case .failure(let problem) where problem.isTooLarge:
            throw failure(place, "\(label) is too large; at most \(Int.max).")
        case .failure: throw failure(place, "\(label) must be a whole number of at least 0, or \(absent).")
        }
    }

    private func price(_ text: String, at place: String) throws -> Money {
        do {
            return try Money(parsing: text, currency: currency)
        } catch {
            throw failure(place, error.description)
        }
    }

    /// `file:3: message` for CSV lines, `file: index 2: message` for JSON items.
    private func failure(_ place: String?, _ message: String) -> CommandFailure {
        CommandFailure(DisplayText.clean(name) + (place.map { ":\($0): " } ?? ": ") + message)
    }
}

extension String {
    /// Without surrounding spaces and tabs.
    fileprivate func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
