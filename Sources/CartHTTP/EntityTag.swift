import HTTPServer

/// A cart's version as an entity tag (`ETag: "7"`), and what a request's `If-Match` asks.
enum EntityTag {
    /// What `If-Match` allows a change to apply to.
    enum Precondition: Equatable {
        /// Any version: no `If-Match`, or `If-Match: *`.
        case any
        /// Only this version.
        case version(Int)
        /// No version: a weak tag (never equal under the strong comparison `If-Match` uses) or
        /// a tag that is not a version.
        case unmatchable
    }

    /// The `ETag` value of a cart at `version`: the number in quotes.
    static func header(for version: Int) -> String {
        "\"\(version)\""
    }

    /// The precondition of `request`'s `If-Match`. One entity tag or `*` is accepted, as the
    /// API only ever sends one.
    ///
    /// - Throws: 400 `invalid_if_match` for a list, a repeated header or a malformed tag.
    static func precondition(of request: HTTPRequest) throws(APIError) -> Precondition {
        let values = request.headers.values(for: "If-Match")
        guard let raw = values.first else { return .any }
        let value = raw.trimmingSpaces
        guard values.count == 1, !value.contains(",") else {
            throw .badRequest("invalid_if_match", "If-Match must hold one entity tag, such as \"3\".")
        }
        if value == "*" { return .any }
        let weak = value.hasPrefix("W/")
        let tag = weak ? value.dropFirst(2) : value[...]
        guard tag.count >= 2, tag.first == "\"", tag.last == "\"",
            !tag.dropFirst().dropLast().contains(where: { $0 == "\"" || $0.asciiValue.map { $0 < 0x21 || $0 == 0x7F } ?? false })
        else {
            throw .badRequest("invalid_if_match", "If-Match must hold one entity tag, such as \"3\".")
        }
        // Entity tags compare as opaque text: `"05"` and `"+5"` are not the tag of version 5.
        let opaque = tag.dropFirst().dropLast()
        guard !weak, let version = Int(opaque), version >= 0, String(version) == opaque else { return .unmatchable }
        return .version(version)
    }
}

extension String {
    /// The text without leading and trailing spaces and tabs, as HTTP field values are read.
    var trimmingSpaces: String {
        let utf8 = self.utf8
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        guard let first = utf8.firstIndex(where: { !isSpace($0) }), let last = utf8.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(self[first...last])
    }
}
