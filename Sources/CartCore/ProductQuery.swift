/// Which products to list, and how many: a filter plus a keyset page in SKU order.
public struct ProductQuery: Hashable, Sendable {
    /// Whether products not for sale are listed too.
    public var includeInactive: Bool
    /// Only products whose SKU or name contains this text, in any case; `nil` or empty for all.
    public var text: String?
    /// The keyset cursor: only products whose SKU sorts after this one. Pass the `next` of one
    /// page to get the following one.
    public var after: String?
    /// At most this many products, 1...10000; `nil` for all.
    public var limit: Int?

    /// Creates a query; the defaults list every product for sale.
    public init(includeInactive: Bool = false, text: String? = nil, after: String? = nil, limit: Int? = nil) {
        self.includeInactive = includeInactive
        self.text = text
        self.after = after
        self.limit = limit
    }

    /// Whether `product` passes the filters (not the cursor or the limit).
    public func includes(_ product: Product) -> Bool {
        guard includeInactive || product.isActive else { return false }
        guard let text, !text.isEmpty else { return true }
        let needle = text.lowercased()
        return Self.contains(product.sku, needle) || Self.contains(product.name, needle)
    }

    /// Whether `text` lowercased contains `needle`. Printable ASCII (every SKU, most names)
    /// is searched in place, its letters folded as `lowercased()` folds them, rather than
    /// lowercased into a new string first: a search checks every product of the catalog.
    static func contains(_ text: String, _ needle: String) -> Bool {
        var text = text
        var needle = needle
        let found = text.withUTF8 { haystack in
            needle.withUTF8 { needle in
                haystack.allSatisfy(isPrintableASCII) && needle.allSatisfy(isPrintableASCII)
                    ? containsFolding(haystack, needle) : nil
            }
        }
        return found ?? text.lowercased().contains(needle)
    }

    /// Whether `needle` occurs in `haystack` with the haystack's ASCII letters in lowercase.
    private static func containsFolding(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in
            needle.indices.allSatisfy { asciiLowercase(haystack[start + $0]) == needle[$0] }
        }
    }

    private static func isPrintableASCII(_ byte: UInt8) -> Bool { (0x20...0x7E).contains(byte) }

    private static func asciiLowercase(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }
}
