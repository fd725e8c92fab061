import RawSQLiteBaseline

/// The raw SQLite C baseline (`Sources/RawSQLiteBaseline`) behind a thin Swift handle: each
/// call goes straight to one C function, so what is timed is the C code.
final class RawBaseline {
    let store: OpaquePointer

    /// Opens or creates the raw baseline's own database at `path`.
    init(path: String, maxLineQuantity: Int64 = 99) throws {
        guard let store = raw_open(path, maxLineQuantity) else { throw BenchError.raw("raw_open(\(path))", code: -1) }
        self.store = store
    }

    deinit { raw_close(store) }

    /// Checks a raw call's result.
    @inline(__always)
    static func check(_ code: Int32, _ call: @autoclosure () -> String) throws {
        guard code == 0 else { throw BenchError.raw(call(), code: code) }
    }

    /// Imports products in one transaction, from text laid out before the clock starts.
    func importProducts(_ batch: RawProductBatch) throws {
        let code = batch.text.withUnsafeBufferPointer { text in
            raw_import_products(
                store, Int32(batch.count), text.baseAddress, batch.skuOffsets, batch.nameOffsets, batch.prices,
                batch.stocks)
        }
        try Self.check(code, "raw_import_products")
    }

    func beginBulk() throws { try Self.check(raw_begin(store), "raw_begin") }

    func commitBulk() throws { try Self.check(raw_commit(store), "raw_commit") }

    var orderCount: Int64 { raw_order_count(store) }
}

/// Products for `raw_import_products`: NUL-terminated SKUs and names in one buffer.
struct RawProductBatch {
    var text: [CChar] = []
    var skuOffsets: [Int32] = []
    var nameOffsets: [Int32] = []
    var prices: [Int64] = []
    var stocks: [Int64] = []
    var count: Int { prices.count }

    init(skus: [String], names: [String], prices: [Int64], stock: Int64) {
        for index in skus.indices {
            skuOffsets.append(Int32(text.count))
            text.append(contentsOf: skus[index].utf8CString)
            nameOffsets.append(Int32(text.count))
            text.append(contentsOf: names[index].utf8CString)
        }
        self.prices = prices
        stocks = Array(repeating: stock, count: prices.count)
    }
}
