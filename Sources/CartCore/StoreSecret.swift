/// A store's own secret: 32 random bytes made the first time anyone asks for it
/// (`CartService.storeSecret()`) and kept in the store, so every process that opens the store,
/// on any host and after any restart, gets the same bytes. For keys that every server of one
/// store must share; derive one key per purpose from it (an HMAC of the purpose's name), so
/// that two uses never share a key.
///
/// Stores keep it as 64 lowercase hex digits (`hex`). Its description never shows the bytes.
public struct StoreSecret: Hashable, Sendable, CustomStringConvertible {
    /// The secret's bytes.
    public let bytes: [UInt8]

    /// How many bytes a secret has: 256 bits.
    public static let byteCount = 32

    /// The secret of these bytes; `nil` unless there are exactly `byteCount`.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        self.bytes = bytes
    }

    /// The secret written as `hex` writes it; `nil` for anything but 64 lowercase hex digits.
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 2 * Self.byteCount else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.byteCount)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = Self.value(ofHexDigit: digits[index]), let low = Self.value(ofHexDigit: digits[index + 1])
            else { return nil }
            bytes.append(high << 4 | low)
        }
        self.bytes = bytes
    }

    /// A new secret from the system's cryptographically secure generator.
    public static func random() -> StoreSecret {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(byteCount)
        while bytes.count < byteCount {
            let word = generator.next()
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        return StoreSecret(checked: bytes)
    }

    private init(checked bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The bytes as 64 lowercase hex digits, as stores keep them.
    public var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(2 * bytes.count)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    public var description: String { "StoreSecret(\(bytes.count) bytes)" }

    private static func value(ofHexDigit digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}

extension StoreSecret {
    /// The secret as a backend reads it back from its column.
    ///
    /// - Throws: `StoredDataError` when the text is not 64 lowercase hex digits, which the
    ///   schemas' CHECK allows alone: another client wrote it.
    public init(storedHex text: String) throws(StoredDataError) {
        guard let secret = StoreSecret(hex: text) else { throw Self.unusable }
        self = secret
    }

    /// The error for a stored secret that is not 64 lowercase hex digits.
    public static let unusable = StoredDataError("the store secret is not 64 lowercase hex digits")
}
