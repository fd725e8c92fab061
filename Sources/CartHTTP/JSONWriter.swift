import CartCore

/// Writes JSON text byte by byte, as `CartJSON.encoder()` writes it: no white space, strings
/// with `"`, `\` and control characters escaped (`\b \t \n \f \r` short, the others as
/// `\u00XX`), everything else as UTF-8. For the shapes on the hot path (`CartReport+JSON.swift`),
/// where the encoder's cost showed in the benchmarks (docs/BENCHMARKS.md).
struct JSONWriter {
    /// The text so far.
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends text that is already JSON: punctuation and keys with their quotes.
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends a whole number.
    mutating func integer(_ value: Int) {
        decimal(Int64(value), fractionDigits: 0)
    }

    /// Appends `text` as a JSON string.
    mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            bytes.append(UInt8(ascii: "\""))
            // Most text (IDs, SKUs, names, codes) needs no escape: copy it whole.
            if !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                bytes.append(contentsOf: utf8)
            } else {
                for byte in utf8 { escape(byte) }
            }
            bytes.append(UInt8(ascii: "\""))
        }
    }

    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), byte]
        case 0x08: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
        case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
        case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
        case 0x0C: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
        case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
        case 0..<0x20:
            let digits = Array("0123456789abcdef".utf8)
            bytes += Array("\\u00".utf8) + [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
        default: bytes.append(byte)
        }
    }

    /// Appends an amount as `Money.decimalString` writes it, in quotes (`"12.99"`), without
    /// building the string: a cart's JSON holds two amounts per line.
    mutating func amount(_ money: Money) {
        bytes.append(UInt8(ascii: "\""))
        decimal(money.minorUnits, fractionDigits: money.currency.minorUnitExponent)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends `value` with a point before its last `fractionDigits` digits (`1299`, 2:
    /// `12.99`; `5`, 2: `0.05`).
    private mutating func decimal(_ value: Int64, fractionDigits: Int) {
        // Int64's 19 digits, a point, the zeros before them and a sign fit in 32.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
            var start = buffer.count
            var magnitude = value.magnitude
            var written = 0
            while magnitude > 0 || written <= fractionDigits {
                if written == fractionDigits, fractionDigits > 0 {
                    start -= 1
                    buffer[start] = UInt8(ascii: ".")
                }
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                written += 1
            }
            if value < 0 {
                start -= 1
                buffer[start] = UInt8(ascii: "-")
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start...]))
        }
    }
}
