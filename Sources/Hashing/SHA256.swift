/// SHA-256 (FIPS 180-4): migration and resource checksums at build time, and HMAC-signed cart
/// IDs at run time. The toolchain on Linux has no CryptoKit and SQLite's library has no hash
/// function, so this small, test-vector-checked version is ours.
public enum SHA256 {
    private static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// The digest of `text`'s UTF-8 bytes as 64 lowercase hex digits.
    public static func hex(_ text: String) -> String {
        hex(digest(Array(text.utf8)))
    }

    /// `bytes` as lowercase hex digits, two per byte.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The 32-byte digest of `message`.
    public static func digest(_ message: [UInt8]) -> [UInt8] {
        var state = initialState
        return message.withUnsafeBytes { finish(&state, $0, after: 0) }
    }

    /// The eight words of the hash state, held inline: a state is copied for every HMAC, and
    /// an array would be a heap allocation each time.
    typealias State = SIMD8<UInt32>

    /// The hash state before any block.
    static let initialState = State(
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19)

    /// The digest of a message whose first `earlier` bytes (a multiple of 64) `state` has
    /// already absorbed and whose rest is `tail`: the tail, the padding and the length.
    static func finish(_ state: inout State, _ tail: UnsafeRawBufferPointer, after earlier: Int) -> [UInt8] {
        let bitLength = UInt64(earlier + tail.count) &* 8
        let whole = tail.count - tail.count % 64
        absorb(&state, UnsafeRawBufferPointer(rebasing: tail[..<whole]))
        // The last bytes, 0x80, zeros and the 64-bit length fill one block or two.
        withUnsafeTemporaryAllocation(byteCount: 128, alignment: 8) { last in
            let rest = tail.count - whole
            let count = rest < 56 ? 64 : 128
            last.copyMemory(from: UnsafeRawBufferPointer(rebasing: tail[whole...]))
            last[rest] = 0x80
            last[(rest + 1)..<(count - 8)].initializeMemory(as: UInt8.self, repeating: 0)
            last.storeBytes(of: bitLength.bigEndian, toByteOffset: count - 8, as: UInt64.self)
            absorb(&state, UnsafeRawBufferPointer(rebasing: last[..<count]))
        }
        return [UInt8](unsafeUninitializedCapacity: 32) { digest, initialized in
            for i in 0..<8 {
                UnsafeMutableRawBufferPointer(digest).storeBytes(
                    of: state[i].bigEndian, toByteOffset: 4 * i, as: UInt32.self)
            }
            initialized = 32
        }
    }

    /// Runs the compression function over each 64-byte block of `data` (a multiple of 64).
    static func absorb(_ state: inout State, _ data: UnsafeRawBufferPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            k.withUnsafeBufferPointer { k in
                for chunk in stride(from: 0, to: data.count, by: 64) {
                    compress(&state, UnsafeRawBufferPointer(rebasing: data[chunk..<(chunk + 64)]), w, k)
                }
            }
        }
    }

    /// FIPS 180-4's compression of one block into `state`, with `w` as the message schedule.
    private static func compress(
        _ state: inout State, _ block: UnsafeRawBufferPointer, _ w: UnsafeMutableBufferPointer<UInt32>,
        _ k: UnsafeBufferPointer<UInt32>
    ) {
        for i in 0..<16 {
            w[i] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self))
        }
        for i in 16..<64 {
            let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] &>> 3)
            let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] &>> 10)
            w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, h) = (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7])
        // Eight rounds at a time, each naming the working variables in the places the previous
        // round shifted them to, rather than moving all eight values every round.
        for i in stride(from: 0, to: 64, by: 8) {
            round(a, b, c, &d, e, f, g, &h, k[i] &+ w[i])
            round(h, a, b, &c, d, e, f, &g, k[i + 1] &+ w[i + 1])
            round(g, h, a, &b, c, d, e, &f, k[i + 2] &+ w[i + 2])
            round(f, g, h, &a, b, c, d, &e, k[i + 3] &+ w[i + 3])
            round(e, f, g, &h, a, b, c, &d, k[i + 4] &+ w[i + 4])
            round(d, e, f, &g, h, a, b, &c, k[i + 5] &+ w[i + 5])
            round(c, d, e, &f, g, h, a, &b, k[i + 6] &+ w[i + 6])
            round(b, c, d, &e, f, g, h, &a, k[i + 7] &+ w[i + 7])
        }
        state &+= State(a, b, c, d, e, f, g, h)
    }

    /// One round: `d` becomes the new `e`, and `h` the new `a`, given the round's constant plus
    /// its schedule word.
    @inline(__always)
    private static func round(
        _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32, _ e: UInt32, _ f: UInt32, _ g: UInt32,
        _ h: inout UInt32, _ constantAndWord: UInt32
    ) {
        let t1 = h &+ (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) &+ ((e & f) ^ (~e & g)) &+ constantAndWord
        let t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) &+ ((a & b) ^ (a & c) ^ (b & c))
        d = d &+ t1
        h = t1 &+ t2
    }

    /// Masking shifts (`&>>`): the amounts are constants below 32, so Swift's checks for
    /// larger ones would only cost.
    private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { x &>> n | x &<< (32 &- n) }
}
