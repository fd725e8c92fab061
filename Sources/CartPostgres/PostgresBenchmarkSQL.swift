package import CartCore

/// The SQL texts of the units `cart-bench` also runs through raw libpq C, handed over so that
/// the baseline sends the very statements the repository sends.
package enum PostgresBenchmarkSQL {
    package static let beginWrite = PostgresIsolationLevel.readCommitted.begin(readOnly: false)
    package static let beginRead = PostgresIsolationLevel.repeatableRead.begin(readOnly: true)
    package static let settings = PostgresCartStorage.selectSettings
    package static let lineContext = PostgresCartStorage.lockLineContext
    package static let insertLine = PostgresCartStorage.insertCartLineSQL
    package static let updateLine = PostgresCartStorage.updateCartLineSQL
    package static let insertCart = PostgresCartStorage.insertCartSQL
    package static let updateCart = PostgresCartStorage.updateCartSQL
    package static let lockCart = PostgresCartStorage.lockCartHeader
    package static let lockLines = PostgresCartStorage.lockCartLines
    package static let lockLastNumber = PostgresCartStorage.lockLastOrderNumber
    package static let insertOrder = PostgresCartStorage.insertOrderSQL
    package static let updateStock = PostgresCartStorage.updateStockSQL
    package static let deleteLines = PostgresCartStorage.deleteCartLinesSQL

    /// The statement a read of `query` runs, and its parameters as text (`nil` for NULL),
    /// the page size last.
    package static func orderPage(_ query: OrderQuery) -> (sql: String, parameters: [String?]) {
        let filter = PostgresOrderFilter(query, includeCursor: true)
        let parameters = (filter.parameters + [PostgresValue(query.limit)]).map(\.textFormat)
        return (PostgresCartStorage.orderPageSQL(filter, sort: query.sort), parameters)
    }
}
