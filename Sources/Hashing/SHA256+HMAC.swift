extension SHA256 {
    /// HMAC-SHA256 (RFC 2104) of `message` under `key`: 32 bytes. A key longer than the
    /// 64-byte block is hashed first, as the RFC says.
    public static func hmac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var block = key.count > 64 ? digest(key) : key
        block += repeatElement(0, count: 64 - block.count)
        let inner = digest(block.map { $0 ^ 0x36 } + message)
        return digest(block.map { $0 ^ 0x5c } + inner)
    }
}
