/// Splits a raw request target into decoded path segments and query parameters.
///
/// Percent-decoding happens once per segment, after splitting on `/`, so `%2F` stays
/// inside its segment and `%252e` decodes to the text `%2e`, never to a dot.
enum TargetDecoder {
    /// An absolute-form target (`http://127.0.0.1:8080/v1/health?x=1`, the scheme in any
    /// case), which RFC 9112 §3.2.2 says a server must accept, as the authority it names and
    /// the origin-form rest (`/v1/health?x=1`; `/` when it has no path). Any other target is
    /// returned as it is, with no authority.
    static func originForm(of target: [UInt8]) -> (authority: String?, origin: [UInt8]) {
        let scheme = "http://".utf8
        guard target.count > scheme.count, target.first != UInt8(ascii: "/"),
            zip(target, scheme).allSatisfy({ byte, expected in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 == expected : byte == expected
            })
        else { return (nil, target) }
        let rest = target[scheme.count...]
        let end = rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? rest.endIndex
        let authority = rest[..<end]
        guard !authority.isEmpty, rawError(authority) == nil else { return (nil, target) }
        var origin = Array(rest[end...])
        if origin.first != UInt8(ascii: "/") { origin.insert(UInt8(ascii: "/"), at: 0) }
        return (String(decoding: authority, as: UTF8.self), origin)
    }

    /// The path segments of `target`: none for `/`, otherwise one for each `/`, empty ones
    /// kept (`/a//b/` is `["a", "", "b", ""]`).
    static func path(of target: [UInt8]) -> Result<[String], HTTPTargetError> {
        guard target.first == UInt8(ascii: "/") else { return .failure(.notOriginForm) }
        // One look at each byte finds where the path ends, refuses the bytes a target may not
        // hold unencoded, and notes whether any segment needs decoding:
        // most paths are plain ASCII, whose segments are their bytes as they are.
        var pathEnd = target.endIndex
        var isPlain = true
        for index in target.indices {
            let byte = target[index]
            if byte == UInt8(ascii: "?") {
                pathEnd = index
                break
            }
            if isRaw(byte) { return .failure(.invalidCharacter) }
            if byte == UInt8(ascii: "%") || byte >= 0x80 { isPlain = false }
        }
        let path = target[..<pathEnd]
        if path.count == 1 { return .success([]) }
        var segments: [String] = []
        // Room for the API's deepest paths, so that appending does not reallocate.
        segments.reserveCapacity(8)
        var start = path.startIndex + 1
        while true {
            let end = path[start...].firstIndex(of: UInt8(ascii: "/")) ?? path.endIndex
            let bytes = path[start..<end]
            switch isPlain ? .success(String(decoding: bytes, as: UTF8.self)) : decode(bytes, plusIsSpace: false) {
            case .failure(let error):
                return .failure(error)
            case .success(let segment):
                if segment == "." || segment == ".." { return .failure(.dotSegment) }
                segments.append(segment)
            }
            if end == path.endIndex { return .success(segments) }
            start = end + 1
        }
    }

    /// The query parameters of `target` (the part after the first `?`).
    static func query(of target: [UInt8]) -> Result<HTTPQuery, HTTPTargetError> {
        guard target.first == UInt8(ascii: "/") else { return .failure(.notOriginForm) }
        guard let mark = target.firstIndex(of: UInt8(ascii: "?")) else { return .success(HTTPQuery()) }
        let query = target[(mark + 1)...]
        if let error = rawError(query) { return .failure(error) }
        var items: [(name: String, value: String)] = []
        for pair in query.split(separator: UInt8(ascii: "&")) {
            let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
            let value = equals == pair.endIndex ? pair[equals...] : pair[(equals + 1)...]
            switch (decode(pair[..<equals], plusIsSpace: true), decode(value, plusIsSpace: true)) {
            case (.failure(let error), _), (_, .failure(let error)):
                return .failure(error)
            case (.success(let name), .success(let value)):
                items.append((name: name, value: value))
            }
        }
        return .success(HTTPQuery(items))
    }

    /// A query parameter's name as ``query(of:)`` decodes it; nil when it does not decode.
    static func queryName(_ bytes: [UInt8]) -> String? {
        try? decode(bytes[...], plusIsSpace: true).get()
    }

    /// The error for bytes that hold one that must not appear unencoded.
    private static func rawError(_ bytes: ArraySlice<UInt8>) -> HTTPTargetError? {
        bytes.contains(where: isRaw) ? .invalidCharacter : nil
    }

    /// Whether `byte` must not appear unencoded: space, control characters, DEL, and `#`,
    /// which starts a fragment that a client never sends.
    private static func isRaw(_ byte: UInt8) -> Bool {
        byte <= 0x20 || byte == 0x7F || byte == UInt8(ascii: "#")
    }

    /// Percent-decodes `bytes` and checks that the result is UTF-8 without control characters.
    private static func decode(_ bytes: ArraySlice<UInt8>, plusIsSpace: Bool) -> Result<String, HTTPTargetError> {
        // Plain ASCII needs no decoding: `rawError` has already refused control characters.
        if !bytes.contains(where: { $0 == UInt8(ascii: "%") || $0 >= 0x80 || (plusIsSpace && $0 == UInt8(ascii: "+")) }) {
            return .success(String(decoding: bytes, as: UTF8.self))
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard bytes.endIndex - index > 2,
                    let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
                else { return .failure(.invalidPercentEncoding) }
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        if decoded.contains(where: { $0 < 0x20 || $0 == 0x7F }) { return .failure(.controlCharacter) }
        // Decoding replaces each invalid sequence with U+FFFD, so valid UTF-8 is exactly
        // what survives unchanged.
        let text = String(decoding: decoded, as: UTF8.self)
        guard text.utf8.elementsEqual(decoded) else { return .failure(.invalidUTF8) }
        return .success(text)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
