extension SHA256 {
    /// HMAC-SHA256 (RFC 2104) of `message` under `key`: 32 bytes. A key longer than the
    /// 64-byte block is hashed first, as the RFC says.
    public static func hmac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        HMACKey(key).authenticate(message)
    }

    /// An HMAC-SHA256 key with its two padded blocks already hashed, for a key that signs many
    /// messages: each signature then costs the message's blocks and one more, not two more.
    public struct HMACKey: Sendable {
        private let inner: [UInt32]
        private let outer: [UInt32]

        /// Prepares `key`.
        public init(_ key: [UInt8]) {
            var block = key.count > 64 ? digest(key) : key
            block += repeatElement(0, count: 64 - block.count)
            var inner = initialState
            absorb(&inner, block.map { $0 ^ 0x36 })
            var outer = initialState
            absorb(&outer, block.map { $0 ^ 0x5c })
            self.inner = inner
            self.outer = outer
        }

        /// The 32-byte HMAC of `message`.
        public func authenticate(_ message: [UInt8]) -> [UInt8] {
            var inner = self.inner
            let innerDigest = finish(&inner, message, after: 64)
            var outer = self.outer
            return finish(&outer, innerDigest, after: 64)
        }
    }
}
