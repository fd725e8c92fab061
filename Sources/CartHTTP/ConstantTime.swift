/// Comparisons whose time does not depend on where two secrets differ.
enum ConstantTime {
    /// Whether `a` and `b` hold the same bytes, looking at every byte of both whatever they
    /// hold (their lengths, which are not secret here, decide how many).
    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
