/// Array values in PostgreSQL's text format (`{"a","b"}`, `{1,NULL,3}`), sent as one text
/// parameter and cast in the SQL (`$1::text[]`), so that one statement text takes any number
/// of rows through `unnest`.
///
/// Each literal is built as UTF-8 bytes, which costs a fraction of appending to a `String`
/// piece by piece.
enum PostgresArrayLiteral {
    /// Texts, each quoted, with `"` and `\` escaped by a backslash; `nil` is NULL.
    static func texts(_ values: [String?]) -> PostgresValue {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        bytes.reserveCapacity(values.reduce(2) { $0 + ($1?.utf8.count ?? 4) + 3 })
        for value in values {
            if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
            guard let value else {
                bytes.append(contentsOf: "NULL".utf8)
                continue
            }
            bytes.append(UInt8(ascii: "\""))
            for byte in value.utf8 {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { bytes.append(UInt8(ascii: "\\")) }
                bytes.append(byte)
            }
            bytes.append(UInt8(ascii: "\""))
        }
        bytes.append(UInt8(ascii: "}"))
        return .text(String(decoding: bytes, as: UTF8.self))
    }

    /// Integers; `nil` is NULL.
    static func integers(_ values: [Int64?]) -> PostgresValue {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        bytes.reserveCapacity(values.count * 8 + 2)
        for value in values {
            if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
            if let value { bytes.append(contentsOf: String(value).utf8) } else { bytes.append(contentsOf: "NULL".utf8) }
        }
        bytes.append(UInt8(ascii: "}"))
        return .text(String(decoding: bytes, as: UTF8.self))
    }

    /// Booleans.
    static func booleans(_ values: [Bool]) -> PostgresValue {
        .text("{" + values.map { $0 ? "t" : "f" }.joined(separator: ",") + "}")
    }
}
