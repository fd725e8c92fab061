#if canImport(Glibc)
import Glibc
#endif
import Hashing

/// The secret that signs the cart IDs a server mints (``CartIDMinter``). Every server process
/// that serves one store must use the same key, and keep it across restarts, or carts it
/// minted become unreachable from the storefront.
///
/// ```swift
/// let key = try CartIDKey.loadOrCreate(atPath: "/var/lib/shop/cart.sqlite3.cart-id-key")
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

    /// A new key of 32 bytes from the system's cryptographically secure generator: for a store
    /// that lives no longer than the process (an in-memory store, a test).
    public static func random() -> CartIDKey {
        var generator = SystemRandomNumberGenerator()
        return CartIDKey(unchecked: randomBytes(minimumLength, using: &generator))
    }


    private init(unchecked bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The key kept in the file at `path` (64 hex digits and a newline), created with a new
    /// random key, readable by its owner only, when there is none. Processes starting at once
    /// agree: the file is written under another name and linked into place, so the first link
    /// wins and the others read it.
    ///
    /// - Throws: ``CartIDKeyError/unusable(path:reason:)`` or
    ///   ``CartIDKeyError/malformed(path:)``.
    public static func loadOrCreate(atPath path: String) throws(CartIDKeyError) -> CartIDKey {
        if let key = try read(path) { return key }
        var generator = SystemRandomNumberGenerator()
        let key = CartIDKey(unchecked: randomBytes(minimumLength, using: &generator))
        let temporary = path + "." + SHA256.hex(randomBytes(8, using: &generator)) + ".new"
        try write(Array((SHA256.hex(key.bytes) + "\n").utf8), toNewFile: temporary)
        defer { unlink(temporary) }
        guard link(temporary, path) == 0 || errno == EEXIST else { throw .unusable(path: path, reason: lastError()) }
        guard let stored = try read(path) else { throw .unusable(path: path, reason: "it vanished after it was created") }
        return stored
    }

    /// Writes `bytes` to a new file readable by its owner only, and flushes them to the disk.
    private static func write(_ bytes: [UInt8], toNewFile path: String) throws(CartIDKeyError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .unusable(path: path, reason: lastError()) }
        defer { close(descriptor) }
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            let reason = written < 0 ? lastError() : "the disk took only part of it"
            unlink(path)
            throw .unusable(path: path, reason: reason)
        }
        guard fsync(descriptor) == 0 else {
            let reason = lastError()
            unlink(path)
            throw .unusable(path: path, reason: reason)
        }
    }

    /// The key in the file at `path`, or nil when there is no such file.
    private static func read(_ path: String) throws(CartIDKeyError) -> CartIDKey? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw .unusable(path: path, reason: lastError())
        }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 200)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        guard count >= 0 else { throw .unusable(path: path, reason: lastError()) }
        var text = buffer[..<count]
        if text.last == UInt8(ascii: "\n") { text = text.dropLast() }
        guard text.count >= 2 * minimumLength, text.count % 2 == 0, let bytes = bytes(fromHex: text) else {
            throw .malformed(path: path)
        }
        return CartIDKey(unchecked: bytes)
    }

    /// The bytes two hex digits each stand for; nil when a digit is not lowercase hex.
    static func bytes(fromHex digits: ArraySlice<UInt8>) -> [UInt8]? {
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            default: nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = digits.startIndex
        while index + 1 < digits.endIndex {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return index == digits.endIndex ? bytes : nil
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

    private static func lastError() -> String {
        String(cString: strerror(errno))
    }
}
