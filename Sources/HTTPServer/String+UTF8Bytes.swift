extension String {
    /// Whether every byte of the string's UTF-8 satisfies `predicate`, read in place where a
    /// native string's bytes are contiguous rather than through the `utf8` view's iterator, for
    /// the header and log checks every request makes.
    package func allUTF8(_ predicate: (UInt8) -> Bool) -> Bool {
        utf8.withContiguousStorageIfAvailable { $0.allSatisfy(predicate) } ?? utf8.allSatisfy(predicate)
    }
}
