/// The header fields a change to a cart starts from and updates: its version as read (`nil`
/// for a cart never written) and its line summary.
struct CartState {
    var version: Int?
    var lineCount: Int
    var nextLinePosition: Int

    init(_ header: CartHeader?) {
        version = header?.version
        lineCount = header?.lineCount ?? 0
        nextLinePosition = header?.nextLinePosition ?? 1
    }

    init(_ context: CartLineContext) {
        version = context.cartVersion
        lineCount = context.lineCount
        nextLinePosition = context.nextLinePosition
    }

    /// Counts a new line and returns the position it takes.
    ///
    /// - Throws: `StoredDataError` when the stored summary is at the largest integer.
    mutating func lineInserted(_ cartID: String) throws(StoredDataError) -> Int {
        let position = nextLinePosition
        lineCount = try StoredDataError.successor(of: lineCount, "the line count of cart '\(cartID.displayable)'")
        nextLinePosition = try StoredDataError.successor(
            of: position, "the next line position of cart '\(cartID.displayable)'")
        return position
    }

    /// Counts a deleted line.
    mutating func lineDeleted() {
        lineCount = lineCount > 0 ? lineCount - 1 : 0
    }
}
