#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension PostgresValue {
    /// Calls `body` with the number of `values` and a C string for each in text format (a
    /// null pointer for NULL), valid only during the call. The strings share one buffer, and
    /// both it and the pointers live on the stack when they are small.
    ///
    /// Text holding NUL is cut short there: check with `PostgresValue.check(_:sql:)` first.
    static func withTextFormats<Result>(
        _ values: [PostgresValue], _ body: (Int32, UnsafePointer<UnsafePointer<CChar>?>?) -> Result
    ) -> Result {
        let size = values.reduce(0) { $0 + $1.textFormatSize }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: size) { bytes in
            withUnsafeTemporaryAllocation(of: UnsafePointer<CChar>?.self, capacity: values.count) { pointers in
                var next = bytes.baseAddress
                for (index, value) in values.enumerated() {
                    var start = next
                    if case .null = value { start = nil }
                    if let start { next = start + value.writeTextFormat(to: start) }
                    pointers.initializeElement(at: index, to: start.map { UnsafePointer($0) })
                }
                return body(Int32(values.count), UnsafePointer(pointers.baseAddress))
            }
        }
    }

    /// Checks that `values` can be sent as the parameters of `sql`.
    ///
    /// - Throws: `PostgresError` of kind `.invalidArgument` for text that holds NUL, which
    ///   PostgreSQL text cannot store and libpq would cut short, or for more parameters than
    ///   the protocol carries.
    static func check(_ values: [PostgresValue], sql: PostgresSQL) throws {
        guard values.count <= 65535 else {
            throw PostgresError(
                kind: .invalidArgument, message: "a statement takes at most 65535 parameters, not \(values.count)",
                sql: sql.text)
        }
        for (index, value) in values.enumerated() {
            if case .text(let text) = value, text.containsNUL {
                throw PostgresError(
                    kind: .invalidArgument,
                    message: "parameter $\(index + 1) contains a NUL character, which PostgreSQL text cannot hold",
                    sql: sql.text)
            }
        }
    }

    /// The bytes the text format takes with its terminating NUL, at most: 0 for NULL.
    private var textFormatSize: Int {
        switch self {
        case .null: 0
        case .text(let text): text.utf8.count + 1
        // "-9223372036854775808" and its NUL.
        case .integer: 21
        case .boolean: 2
        }
    }

    /// Writes the text format and a NUL at `start` and returns how many bytes that took.
    private func writeTextFormat(to start: UnsafeMutablePointer<CChar>) -> Int {
        switch self {
        case .null:
            return 0
        case .text(var text):
            return text.withUTF8 { bytes in
                if let base = bytes.baseAddress { memcpy(start, base, bytes.count) }
                start[bytes.count] = 0
                return bytes.count + 1
            }
        case .integer(let integer):
            var position = start
            if integer < 0 {
                position.pointee = CChar(UInt8(ascii: "-"))
                position += 1
            }
            var digits = 1
            var rest = integer.magnitude / 10
            while rest > 0 {
                digits += 1
                rest /= 10
            }
            position[digits] = 0
            var magnitude = integer.magnitude
            for offset in (0..<digits).reversed() {
                position[offset] = CChar(UInt8(ascii: "0") + UInt8(magnitude % 10))
                magnitude /= 10
            }
            return position - start + digits + 1
        case .boolean(let boolean):
            start[0] = CChar(UInt8(ascii: boolean ? "t" : "f"))
            start[1] = 0
            return 2
        }
    }
}
