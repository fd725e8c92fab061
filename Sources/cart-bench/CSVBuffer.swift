/// A CSV-like row writer into a fixed buffer that is emptied whenever it fills, as a writer
/// to a pipe would be; counts the bytes written so the work cannot be skipped.
struct CSVBuffer {
    private let start: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private var count = 0
    private var flushed: UInt64 = 0
    /// Room for one row: three texts of at most 200 characters, doubled by quoting, and numbers.
    private static let maxRow = 3 * 404 + 8 * 24

    init(capacity: Int) {
        self.capacity = capacity
        start = .allocate(capacity: capacity)
    }

    /// Empties the buffer if the next row might not fit.
    mutating func reserveRow() {
        if count + Self.maxRow > capacity {
            flushed += UInt64(count)
            count = 0
        }
    }

    /// Appends a number and a comma (or a newline after the last field).
    mutating func append(_ value: Int64, last: Bool = false) {
        var magnitude = value.magnitude
        if value < 0 { put(UInt8(ascii: "-")) }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        let written = withUnsafeMutableBytes(of: &digits) { scratch -> Int in
            var index = scratch.count
            repeat {
                index -= 1
                scratch[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            let length = scratch.count - index
            (start + count).update(from: scratch.baseAddress!.assumingMemoryBound(to: UInt8.self) + index, count: length)
            return length
        }
        count += written
        put(last ? UInt8(ascii: "\n") : UInt8(ascii: ","))
    }

    /// Appends a text field, quoted when it holds a comma, quote or line break, and a comma.
    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            let needsQuotes = bytes.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 10 || $0 == 13 }
            guard needsQuotes else {
                if let base = bytes.baseAddress { (start + count).update(from: base, count: bytes.count) }
                count += bytes.count
                return
            }
            put(UInt8(ascii: "\""))
            for byte in bytes {
                if byte == UInt8(ascii: "\"") { put(byte) }
                put(byte)
            }
            put(UInt8(ascii: "\""))
        }
        put(UInt8(ascii: ","))
    }

    @inline(__always)
    private mutating func put(_ byte: UInt8) {
        start[count] = byte
        count += 1
    }

    /// The total bytes written; releases the buffer.
    mutating func finish() -> UInt64 {
        defer { start.deallocate() }
        return flushed + UInt64(count)
    }
}
