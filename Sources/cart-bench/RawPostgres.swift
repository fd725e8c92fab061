import CartPostgres
import Foundation
import RawPostgresBaseline

/// The raw libpq C baseline (`Sources/RawPostgresBaseline`) behind a thin Swift handle: each
/// unit is one C call, so what is timed is the C code, running the statements of
/// `PostgresBenchmarkSQL`.
final class RawPostgres {
    let handle: OpaquePointer

    /// Connects to `url` and prepares the cart statements.
    init(url: String) throws {
        var error = [CChar](repeating: 0, count: 512)
        guard let handle = raw_pg_open(url, &error, Int32(error.count)) else {
            throw BenchError.raw("raw_pg_open: " + String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), code: -1)
        }
        self.handle = handle
        let sql: [String] = [
            PostgresBenchmarkSQL.beginWrite, PostgresBenchmarkSQL.beginRead, "COMMIT", "ROLLBACK", PostgresBenchmarkSQL.settings,
            PostgresBenchmarkSQL.lineContext, PostgresBenchmarkSQL.insertLine, PostgresBenchmarkSQL.updateLine,
            PostgresBenchmarkSQL.insertCart, PostgresBenchmarkSQL.updateCart, PostgresBenchmarkSQL.lockCart,
            PostgresBenchmarkSQL.lockLines, PostgresBenchmarkSQL.lockLastNumber, PostgresBenchmarkSQL.insertOrder,
            PostgresBenchmarkSQL.updateStock, PostgresBenchmarkSQL.deleteLines,
        ]
        let texts = sql.map { text in text.withCString { strdup($0) } }
        defer { texts.forEach { free($0) } }
        var statements = raw_pg_cart_sql(
            begin_write: texts[0], begin_read: texts[1], commit: texts[2], rollback: texts[3], settings: texts[4],
            line_context: texts[5], insert_line: texts[6], update_line: texts[7], insert_cart: texts[8],
            update_cart: texts[9], lock_cart: texts[10], lock_lines: texts[11], lock_last_number: texts[12],
            insert_order: texts[13], update_stock: texts[14], delete_lines: texts[15])
        try RawBaseline.check(raw_pg_cart_prepare(handle, &statements), "raw_pg_cart_prepare: \(String(cString: raw_pg_error(handle)))")
    }

    deinit { raw_pg_close(handle) }

    /// Prepares `sql` into `slot` for `readUnit`.
    func prepare(_ sql: String, slot: Int32) throws {
        try RawBaseline.check(raw_pg_prepare(handle, slot, sql), "raw_pg_prepare: \(String(cString: raw_pg_error(handle)))")
    }
}
