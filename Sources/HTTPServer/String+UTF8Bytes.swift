#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension String {
    /// Whether every byte of the string's UTF-8 satisfies `predicate`, read in place where a
    /// native string's bytes are contiguous rather than through the `utf8` view's iterator, for
    /// the header and log checks every request makes.
    package func allUTF8(_ predicate: (UInt8) -> Bool) -> Bool {
        utf8.withContiguousStorageIfAvailable { $0.allSatisfy(predicate) } ?? utf8.allSatisfy(predicate)
    }

    /// Whether the two strings are the same UTF-8 bytes, read in place where both are
    /// contiguous, for the header name look-ups every request makes. `==` compares canonical
    /// equivalence instead, under which different bytes can be equal.
    package func hasSameUTF8(as other: String) -> Bool {
        let inPlace = utf8.withContiguousStorageIfAvailable { bytes in
            other.utf8.withContiguousStorageIfAvailable { bytes.elementsEqual($0) }
        }
        return (inPlace ?? nil) ?? utf8.elementsEqual(other.utf8)
    }

    /// Whether the string's UTF-8 holds `byte`, searched with `memchr` where the bytes are
    /// contiguous: the log's look for a query in every target.
    package func containsUTF8(_ byte: UInt8) -> Bool {
        utf8.withContiguousStorageIfAvailable { bytes in
            bytes.baseAddress.map { memchr($0, Int32(byte), bytes.count) != nil } ?? false
        } ?? utf8.contains(byte)
    }
}
