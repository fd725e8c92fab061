extension String {
    /// Whether every byte of the string's UTF-8 satisfies `predicate`, read in place: a native
    /// string's bytes are contiguous, and a loop over them costs a few instructions a byte where
    /// the `utf8` view's iterator costs tens.
    package func allUTF8(_ predicate: (UInt8) -> Bool) -> Bool {
        utf8.withContiguousStorageIfAvailable { $0.allSatisfy(predicate) } ?? utf8.allSatisfy(predicate)
    }
}
