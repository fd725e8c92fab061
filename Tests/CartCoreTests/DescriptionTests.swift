import CartCore
import Foundation  // localizedDescription
import Testing

@Suite("Descriptions for people")
struct DescriptionTests {
    @Test("public enums print a human description, not their Swift case names")
    func enumsDescribeThemselves() {
        #expect("\(MergeResult.Reason.stock(3))" == "only 3 in stock")
        #expect("\(MergeResult.Reason.lineCap(99))" == "at most 99 per line")
        #expect("\(MergeResult.Reason.lineCountCap(1))" == "the cart cannot take another line: a cart holds at most 1 line")
        #expect("\(MergeResult.Reason.inactiveProduct)" == "the product is not for sale")
        #expect("\(OrderQuery.Sort.newestFirst)" == "newest first")
        #expect("\(OrderStatsGrouping.day)" == "by day")
        #expect("\(OrderStatsGrouping.total)" == "in total")
        #expect("\(StockLevel.untracked)" == "not tracked")
        #expect("\(StockLevel.tracked(12))" == "12 in stock")
    }

    @Test("a stock level reads and writes Product.stock's optional count")
    func stockLevelUnits() {
        #expect(StockLevel(nil) == .untracked)
        #expect(StockLevel(5) == .tracked(5))
        #expect(StockLevel.tracked(0).units == 0)
        #expect(StockLevel.untracked.units == nil)
    }

    @Test("an error's localizedDescription, what SwiftUI's alerts show, is its one-line message")
    func localizedDescriptions() {
        let errors: [any Error] = [
            CartError.unknownProduct("kiwi"), CartError.invalidQuantity(given: 0, range: 1...99),
            StoredDataError("the quantity of 'kiwi' is -1"), MigrationError.foreignDatabase,
        ]
        for error in errors {
            #expect(error.localizedDescription == String(describing: error))
        }
        #expect(CartError.unknownProduct("kiwi").localizedDescription == "No product with SKU 'kiwi'.")
    }
}
