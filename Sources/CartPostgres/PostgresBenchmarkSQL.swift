package import CartCore

/// The SQL texts of the units `cart-bench` also runs through raw libpq C, handed over so that
/// the baseline sends the very statements the repository sends.
package enum PostgresBenchmarkSQL {
    package static let beginWrite = PostgresIsolationLevel.readCommitted.begin(readOnly: false).text
    package static let beginRead = PostgresIsolationLevel.repeatableRead.begin(readOnly: true).text
    package static let settings = PostgresCartStorage.selectSettings.text
    package static let lineContext = PostgresCartStorage.lockLineContext.text
    package static let insertLine = PostgresCartStorage.insertCartLineSQL.text
    package static let updateLine = PostgresCartStorage.updateCartLineSQL.text
    package static let insertCart = PostgresCartStorage.insertCartSQL.text
    package static let updateCart = PostgresCartStorage.updateCartSQL.text
    package static let lockCart = PostgresCartStorage.lockCartHeader.text
    package static let lockLines = PostgresCartStorage.lockCartLines.text
    package static let lockLastNumber = PostgresCartStorage.lockLastOrderNumber.text
    package static let insertOrder = PostgresCartStorage.insertOrderSQL.text
    package static let updateStock = PostgresCartStorage.updateStockSQL.text
    package static let deleteLines = PostgresCartStorage.deleteCartLinesSQL.text

    /// The statement a read of `query` runs, and its parameters as text (`nil` for NULL),
    /// the page size last.
    package static func orderPage(_ query: OrderQuery) -> (sql: String, parameters: [String?]) {
        let filter = PostgresOrderFilter(query, includeCursor: true)
        let parameters = (filter.parameters + [PostgresValue(query.limit)]).map(\.textFormat)
        return (PostgresCartStorage.orderPageSQL(filter, sort: query.sort), parameters)
    }
}
