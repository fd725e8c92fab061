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
        var hex = hex
        guard hex.utf8.count == 2 * Self.byteCount, let bytes = hex.withUTF8({ LowercaseHex.bytes(of: $0) }) else {
            return nil
        }
        self.bytes = bytes
    }

    /// A new secret from the system's cryptographically secure generator.
    public static func random() -> StoreSecret {
        StoreSecret(checked: SecureRandom.bytes(byteCount))
    }

    private init(checked bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The bytes as 64 lowercase hex digits, as stores keep them.
    public var hex: String { LowercaseHex.text(of: bytes) }

    public var description: String { "StoreSecret(\(bytes.count) bytes)" }
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
