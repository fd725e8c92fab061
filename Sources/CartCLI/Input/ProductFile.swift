import CartCore

/// Import items read from a file, with where each came from so errors can point at it.
struct ProductFile {
    /// How positions in the file are named.
    enum Format {
        /// Items are records; positions are file lines.
        case csv
        /// Items are array elements; positions are 0-based indexes.
        case json
    }

    /// The file name as given, for messages.
    let name: String
    let format: Format
    /// One per record or array element, each with the fields the file gives.
    let items: [ProductImport]
    /// For CSV, the line each item's record starts on; for JSON, unused.
    let lines: [Int]
    /// The price each item gives, as the file writes it; `nil` for an item without one.
    let prices: [String?]

    /// `products.csv:3` or `products.json: index 2`, for the item at `index` of `items`.
    func location(ofItem index: Int) -> String {
        switch format {
        case .csv: return "\(DisplayText.clean(name)):\(index < lines.count ? lines[index] : 0)"
        case .json: return "\(DisplayText.clean(name)): index \(index)"
        }
    }

    /// `error`, which the import refused the item at `index` of `items` for, quoting the
    /// item's price as the file writes it where the service quotes its own form of the amount.
    func quotingPrice(of index: Int, in error: CartError) -> CartError {
        guard index < prices.count, let text = prices[index] else { return error }
        return error.quotingAmount(text)
    }

    /// `line 3` or `index 2`.
    func position(ofItem index: Int) -> String {
        switch format {
        case .csv: return "line \(index < lines.count ? lines[index] : 0)"
        case .json: return "index \(index)"
        }
    }
}
