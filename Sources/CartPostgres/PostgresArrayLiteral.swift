/// Array values in PostgreSQL's text format (`{"a","b"}`, `{1,NULL,3}`), sent as one text
/// parameter and cast in the SQL (`$1::text[]`), so that one statement text takes any number
/// of rows through `unnest`.
enum PostgresArrayLiteral {
    /// Texts, each quoted, with `"` and `\` escaped by a backslash.
    static func texts(_ values: some Sequence<String>) -> PostgresValue {
        var literal = "{"
        for value in values {
            if literal.utf8.count > 1 { literal += "," }
            literal += "\""
            for character in value.unicodeScalars {
                if character == "\"" || character == "\\" { literal += "\\" }
                literal.unicodeScalars.append(character)
            }
            literal += "\""
        }
        return .text(literal + "}")
    }

    /// Integers; `nil` is NULL.
    static func integers(_ values: [Int64?]) -> PostgresValue {
        .text("{" + values.map { $0.map(String.init) ?? "NULL" }.joined(separator: ",") + "}")
    }

    /// Booleans.
    static func booleans(_ values: some Sequence<Bool>) -> PostgresValue {
        .text("{" + values.map { $0 ? "t" : "f" }.joined(separator: ",") + "}")
    }
}
