public import CartCore
import Hashing

/// The secret that signs the cart IDs a server mints (``CartIDMinter``). Every server process
/// that serves one store must use the same key, and keep it across restarts, or carts it
/// minted become unreachable from the storefront: ``init(storeSecret:)`` derives it from the
/// secret the store keeps for everyone who opens it.
///
/// ```swift
/// let key = CartIDKey(storeSecret: try service.storeSecret())
/// ```
public struct CartIDKey: Sendable {
    /// The key's bytes.
    let bytes: [UInt8]

    /// The fewest bytes a key has: the 256 bits of the HMAC-SHA256 it keys.
    public static let minimumLength = 32

    /// A key of these bytes.
    ///
    /// - Throws: ``CartIDKeyError/tooShort(_:)`` below ``minimumLength`` bytes.
    public init(bytes: [UInt8]) throws(CartIDKeyError) {
        guard bytes.count >= Self.minimumLength else { throw .tooShort(bytes.count) }
        self.bytes = bytes
    }

    /// The key of every server of the store whose secret this is: the HMAC-SHA256 of
    /// `cart-id-key` under the secret, so that another use of the secret never shares this key.
    public init(storeSecret: StoreSecret) {
        bytes = SHA256.hmac(key: storeSecret.bytes, message: Array("cart-id-key".utf8))
    }

    /// A new key of 32 bytes from the system's cryptographically secure generator: for a
    /// server whose minted carts need not outlive it (a test).
    public static func random() -> CartIDKey {
        CartIDKey(unchecked: StoreSecret.random().bytes)
    }

    private init(unchecked bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The bytes two hex digits each stand for; nil when a digit is not lowercase hex.
    static func bytes<Digits: RandomAccessCollection<UInt8>>(fromHex digits: Digits) -> [UInt8]? {
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = digits.startIndex
        while index != digits.endIndex {
            let next = digits.index(after: index)
            guard let high = hexValue(digits[index]), let low = hexValue(digits[next]) else { return nil }
            bytes.append(high << 4 | low)
            index = digits.index(after: next)
        }
        return bytes
    }

    /// The value of a lowercase hex digit; nil for any other byte.
    static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    /// `count` bytes from `generator`.
    static func randomBytes(_ count: Int, using generator: inout SystemRandomNumberGenerator) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 7)
        while bytes.count < count {
            let word = generator.next()
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        return Array(bytes.prefix(count))
    }
}
