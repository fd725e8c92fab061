extension SHA256 {
    /// HMAC-SHA256 (RFC 2104) of `message` under `key`: 32 bytes. A key longer than the
    /// 64-byte block is hashed first, as the RFC says.
    public static func hmac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        HMACKey(key).authenticate(message)
    }

    /// An HMAC-SHA256 key with its two padded blocks already hashed, for a key that signs many
    /// messages: each signature then costs the message's blocks and one more, not two more.
    public struct HMACKey: Sendable {
        private let inner: State
        private let outer: State

        /// Prepares `key`.
        public init(_ key: [UInt8]) {
            var block = key.count > 64 ? digest(key) : key
            block += repeatElement(0, count: 64 - block.count)
            var inner = initialState
            block.map { $0 ^ 0x36 }.withUnsafeBytes { absorb(&inner, $0) }
            var outer = initialState
            block.map { $0 ^ 0x5c }.withUnsafeBytes { absorb(&outer, $0) }
            self.inner = inner
            self.outer = outer
        }

        /// The 32-byte HMAC of `message`.
        public func authenticate(_ message: [UInt8]) -> [UInt8] {
            message.withUnsafeBytes(authenticate)
        }

        /// The 32-byte HMAC of the bytes `message` points to.
        public func authenticate(_ message: UnsafeRawBufferPointer) -> [UInt8] {
            var inner = self.inner
            let innerDigest = finish(&inner, message, after: 64)
            var outer = self.outer
            return innerDigest.withUnsafeBytes { finish(&outer, $0, after: 64) }
        }
    }
}
