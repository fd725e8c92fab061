/// Writes JSON text byte by byte, as `CartJSON.encoder()` writes it: no white space, strings
/// with `"`, `\` and control characters escaped (`\b \t \n \f \r` short, the others as
/// `\u00XX`), everything else as UTF-8. For the shapes on the hot path (`CartView+JSON.swift`),
/// where the encoder cost a quarter of a cart request.
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
    mutating func integer(_ value: some BinaryInteger) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// Appends `text` as a JSON string.
    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
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
        bytes.append(UInt8(ascii: "\""))
    }
}
