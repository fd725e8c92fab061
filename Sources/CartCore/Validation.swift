/// The shapes of identifiers and names, checked by `CartService` before anything is stored.
/// Backends mirror the length limits in their own constraints.
///
/// Identifiers (SKUs, cart IDs, idempotency keys) are printable ASCII. That keeps them exact
/// keys on every backend: Unicode text has several encodings of the same visible string (NFC
/// and NFD), which Swift compares as equal and SQLite as different, and look-alike characters
/// invite spoofing. Names are any printable Unicode text.
enum Validation {
    static let maxSKULength = 64
    static let maxNameLength = 200
    static let maxCartIDLength = 128
    static let maxIdempotencyKeyLength = 128

    /// The SKU trimmed of surrounding white space, if it is 1 to 64 printable ASCII characters.
    static func sku(_ raw: String) throws(CartError) -> String {
        if isPlainASCII(raw, maxLength: maxSKULength) { return raw }
        let sku = trimmed(raw)
        if let reason = problem(with: sku, maxLength: maxSKULength, asciiOnly: true) {
            throw .invalidSKU(raw, reason: reason)
        }
        return sku
    }

    /// The name trimmed of surrounding white space, if it is 1 to 200 printable characters, at
    /// least one of them visible (a name of zero-width or blank characters alone would show as
    /// nothing), and none of them a noncharacter (U+FDD0…U+FDEF, U+FFFE, U+FFFF and the last
    /// two of every plane), which Unicode keeps for a program's own use, never for text.
    static func name(_ raw: String) throws(CartError) -> String {
        if isPlainASCII(raw, maxLength: maxNameLength) { return raw }
        let name = try trimmedName(raw)
        if name.unicodeScalars.contains(where: \.properties.isNoncharacterCodePoint) {
            throw .invalidName(raw, reason: "it contains noncharacters")
        }
        guard name.unicodeScalars.contains(where: isVisible) else {
            throw .invalidName(raw, reason: "it has no visible characters")
        }
        return name
    }

    /// Whether `scalar` shows as more than nothing or a blank: not a default-ignorable one (a
    /// zero-width space, a joiner, a Hangul filler), white space or the blank Braille pattern.
    private static func isVisible(_ scalar: Unicode.Scalar) -> Bool {
        !scalar.properties.isDefaultIgnorableCodePoint && !scalar.properties.isWhitespace && scalar != "\u{2800}"
    }

    /// `name(_:)` without the visible character and the noncharacters: what a stored name must
    /// be for the service to use it, since earlier versions stored such names.
    static func storableName(_ raw: String) throws(CartError) -> String {
        if isPlainASCII(raw, maxLength: maxNameLength) { return raw }
        return try trimmedName(raw)
    }

    /// Why `raw` is not a name `name(_:)` takes, or `nil` when it is one.
    static func nameProblem(_ raw: String) -> String? {
        reason { () throws(CartError) in _ = try name(raw) }
    }

    /// Why `raw` is not a name `storableName(_:)` takes, or `nil` when it is one.
    static func storableNameProblem(_ raw: String) -> String? {
        reason { () throws(CartError) in _ = try storableName(raw) }
    }

    /// Why `sku`, read from the store, is not a SKU `sku(_:)` returns as it is, or `nil` when it
    /// is one. Lookups trim what they are given, so none finds a SKU with surrounding space,
    /// and an import refuses one with control characters: another client stored such a SKU.
    static func storedSKUProblem(_ sku: String) -> String? {
        reason { () throws(CartError) in
            if try self.sku(sku) != sku { throw .invalidSKU(sku, reason: "it has leading or trailing space") }
        }
    }

    /// Why `id`, read from the store, is not a cart ID `cartID(_:)` takes, or `nil` when it is
    /// one: another client stored it.
    static func storedCartIDProblem(_ id: String) -> String? {
        reason { () throws(CartError) in _ = try cartID(id) }
    }

    /// The reason `check` gives for refusing a name, SKU or cart ID, or `nil` when it refuses none.
    private static func reason(_ check: () throws(CartError) -> Void) -> String? {
        do {
            try check()
            return nil
        } catch {
            switch error {
            case .invalidName(_, let reason), .invalidSKU(_, let reason), .invalidCartID(_, let reason): return reason
            default: return String(describing: error)
            }
        }
    }

    /// `raw` trimmed, if it is 1 to 200 characters without control or bidirectional ones.
    private static func trimmedName(_ raw: String) throws(CartError) -> String {
        let name = trimmed(raw)
        if let reason = problem(with: name, maxLength: maxNameLength) { throw .invalidName(raw, reason: reason) }
        return name
    }

    /// `sku(_:)` for a new product: also neither `.` nor `..`. Lookups and updates take any
    /// SKU `sku(_:)` takes, so a product another client stored so can be found and deleted.
    static func newSKU(_ raw: String) throws(CartError) -> String {
        let sku = try sku(raw)
        if isDotSegment(sku) { throw .invalidSKU(raw, reason: dotSegmentReason) }
        return sku
    }

    /// Whether `text` is `.` or `..`, which URLs resolve away as path segments (browsers also
    /// resolve `%2E` so), so no URL could name a product or a cart so called.
    static func isDotSegment(_ text: String) -> Bool {
        text == "." || text == ".."
    }

    /// Whether `newSKU(_:)` returns `sku` as it is, checked without building an error.
    static func isNewSKUAsGiven(_ sku: String) -> Bool {
        isPlainASCII(sku, maxLength: maxSKULength) && !isDotSegment(sku)
    }

    static let dotSegmentReason = "'.' and '..' cannot be part of a URL"

    /// The cart ID as given, if it is 1 to 128 printable ASCII characters without surrounding
    /// space.
    static func cartID(_ raw: String) throws(CartError) -> String {
        if isPlainASCII(raw, maxLength: maxCartIDLength) { return raw }
        if let reason = problem(with: raw, maxLength: maxCartIDLength, asciiOnly: true) {
            throw .invalidCartID(raw, reason: reason)
        }
        guard trimmed(raw) == raw else { throw .invalidCartID(raw, reason: "it has leading or trailing space") }
        return raw
    }

    /// The key as given, if it is 1 to 128 printable ASCII characters without surrounding space.
    static func idempotencyKey(_ raw: String) throws(CartError) -> String {
        if isPlainASCII(raw, maxLength: maxIdempotencyKeyLength) { return raw }
        if let reason = problem(with: raw, maxLength: maxIdempotencyKeyLength, asciiOnly: true) {
            throw .invalidIdempotencyKey(raw, reason: reason)
        }
        guard trimmed(raw) == raw else { throw .invalidIdempotencyKey(raw, reason: "it has leading or trailing space") }
        return raw
    }

    /// Whether `text` is 1 to `maxLength` printable ASCII characters without surrounding spaces:
    /// the common case, valid as it is, checked without trimming or Unicode property look-ups,
    /// which the full check below needs.
    static func isPlainASCII(_ text: String, maxLength: Int) -> Bool {
        let utf8 = text.utf8
        let count = utf8.count
        guard count >= 1, count <= maxLength else { return false }
        return utf8.withContiguousStorageIfAvailable { bytes in
            guard bytes[0] != UInt8(ascii: " "), bytes[count - 1] != UInt8(ascii: " ") else { return false }
            for byte in bytes where byte < 0x20 || byte > 0x7E { return false }
            return true
        } ?? false
    }

    private static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }

    /// Lengths count Unicode scalars, as SQLite's `length()` counts characters of text.
    private static func problem(with text: String, maxLength: Int, asciiOnly: Bool = false) -> String? {
        var count = 0
        var ascii = true
        for scalar in text.unicodeScalars {
            count += 1
            if scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}" {
                return "it contains control characters"
            }
            // Bidirectional overrides and isolates make stored text display differently from
            // what it is (a name that reads "txt.exe" backwards).
            if (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value) {
                return "it contains bidirectional control characters"
            }
            if !scalar.isASCII { ascii = false }
        }
        if asciiOnly, !ascii { return "use printable ASCII characters only" }
        if count == 0 { return "it is empty" }
        if count > maxLength { return "it is longer than \(maxLength) characters" }
        return nil
    }
}
