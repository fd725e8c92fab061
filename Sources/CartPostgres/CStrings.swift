/// Calls `body` with C strings for `strings` (a null pointer for each `nil`), valid only
/// during the call: one buffer holds them all, NUL-terminated.
func withCStrings<Result>(_ strings: [String?], _ body: ([UnsafePointer<CChar>?]) throws -> Result) rethrows -> Result {
    var storage: [UInt8] = []
    storage.reserveCapacity(strings.reduce(0) { $0 + ($1?.utf8.count ?? 0) + 1 })
    var offsets: [Int?] = []
    offsets.reserveCapacity(strings.count)
    for string in strings {
        guard let string else {
            offsets.append(nil)
            continue
        }
        offsets.append(storage.count)
        storage.append(contentsOf: string.utf8)
        storage.append(0)
    }
    return try storage.withUnsafeBufferPointer { buffer in
        let base = buffer.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
        return try body(offsets.map { offset in offset.flatMap { offset in base.map { $0 + offset } } })
    }
}
