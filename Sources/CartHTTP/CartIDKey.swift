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
}
