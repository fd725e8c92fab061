import CartCore
import Hashing

/// Mints the unguessable cart IDs the storefront gets, and recognises them later without a
/// table: an ID carries its own proof.
///
/// An ID is `shop_`, 32 hex digits of 128 bits from the system's cryptographically secure
/// generator, then 32 hex digits of HMAC-SHA256 (truncated to 128 bits) of everything before
/// it under the ``CartIDKey``: 69 printable ASCII characters, a valid cart ID. Any process
/// holding the key recognises the IDs any other minted, before or after a restart, and nobody
/// without the key can make one up.
///
/// ```swift
/// let minter = CartIDMinter(key: .random())
/// let id = minter.mint()        // "shop_3f9c…"
/// minter.isMinted(id)           // true
/// minter.isMinted("alice")      // false
/// ```
public struct CartIDMinter: Sendable {
    /// What every minted ID starts with.
    public static let prefix = "shop_"
    /// How long every minted ID is.
    public static let length = prefix.utf8.count + 64

    private let key: SHA256.HMACKey

    /// A minter signing with `key`.
    public init(key: CartIDKey) {
        self.key = SHA256.HMACKey(key.bytes)
    }

    /// A new cart ID.
    public func mint() -> String {
        let body = Self.prefix + LowercaseHex.text(of: SecureRandom.bytes(16))
        return body + LowercaseHex.text(of: tag(Array(body.utf8)))
    }

    /// Whether this minter (or another with the same key) minted `id`. The tag is compared in
    /// constant time.
    public func isMinted(_ id: String) -> Bool {
        let bodyLength = Self.length - 32
        var id = id
        return id.withUTF8 { bytes in
            guard bytes.count == Self.length, bytes.starts(with: Self.prefix.utf8),
                bytes[Self.prefix.utf8.count..<bodyLength].allSatisfy({ LowercaseHex.value(of: $0) != nil }),
                let given = LowercaseHex.bytes(of: UnsafeBufferPointer(rebasing: bytes[bodyLength...]))
            else { return false }
            let body = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[..<bodyLength]))
            return ConstantTime.equal(given, key.authenticate(body).prefix(16))
        }
    }

    /// The first 16 bytes of the HMAC of `body`.
    private func tag(_ body: [UInt8]) -> [UInt8] {
        Array(key.authenticate(body).prefix(16))
    }
}
