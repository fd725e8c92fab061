/// Reads a request body as one JSON value, refusing what a lenient parser lets through and
/// another reader might take differently: bytes that are not UTF-8, lone surrogate escapes,
/// raw control characters in strings, a repeated key, trailing commas, leading zeros, text
/// after the value, and nesting deeper than ``maxDepth`` (request bodies are flat objects).
struct JSONInputParser {
    /// What is wrong and at which byte (counted from 0).
    struct Problem: Error, Equatable {
        let offset: Int
        let reason: String

        var message: String { "The body is not valid JSON: \(reason) at byte \(offset)." }
    }

    /// Nesting deeper than this is refused.
    static let maxDepth = 32

    private let bytes: [UInt8]
    private var index = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The one value `bytes` holds, white space around it allowed.
    static func parse(_ bytes: [UInt8]) throws(Problem) -> JSONInput {
        if let offset = firstInvalidUTF8(in: bytes) { throw Problem(offset: offset, reason: "a byte that is not UTF-8") }
        var parser = JSONInputParser(bytes)
        parser.skipWhitespace()
        let value = try parser.value(depth: 1)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.problem("text after the value") }
        return value
    }

    private func problem(_ reason: String) -> Problem {
        Problem(offset: index, reason: index < bytes.count ? reason : "the body ends early")
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    private mutating func expect(_ byte: UInt8) throws(Problem) {
        guard current == byte else { throw problem("expected '\(Character(Unicode.Scalar(byte)))'") }
        index += 1
    }

    private mutating func value(depth: Int) throws(Problem) -> JSONInput {
        guard depth <= Self.maxDepth else { throw problem("nesting deeper than \(Self.maxDepth) levels") }
        guard let byte = current else { throw problem("expected a value") }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw problem("expected a value")
        }
    }

    private mutating func literal(_ word: String, _ value: JSONInput) throws(Problem) -> JSONInput {
        for byte in word.utf8 { try expect(byte) }
        return value
    }

    private mutating func object(depth: Int) throws(Problem) -> JSONInput {
        index += 1
        var members: [String: JSONInput] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            let keyOffset = index
            guard current == UInt8(ascii: "\"") else { throw problem("expected a quoted key") }
            let key = try string()
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            skipWhitespace()
            let member = try value(depth: depth + 1)
            guard members.updateValue(member, forKey: key) == nil else {
                throw Problem(offset: keyOffset, reason: "the key \"\(key)\" appears twice")
            }
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                index += 1
                continue
            }
            try expect(UInt8(ascii: "}"))
            return .object(members)
        }
    }

    private mutating func array(depth: Int) throws(Problem) -> JSONInput {
        index += 1
        var elements: [JSONInput] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try value(depth: depth + 1))
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                index += 1
                continue
            }
            try expect(UInt8(ascii: "]"))
            return .array(elements)
        }
    }

    /// A string; the bytes are already known to be UTF-8.
    private mutating func string() throws(Problem) -> String {
        index += 1
        var text = ""
        var start = index
        func flush(_ end: Int) {
            text += String(decoding: bytes[start..<end], as: UTF8.self)
        }
        while let byte = current {
            switch byte {
            case UInt8(ascii: "\""):
                flush(index)
                index += 1
                return text
            case UInt8(ascii: "\\"):
                flush(index)
                index += 1
                text.unicodeScalars.append(try escape())
                start = index
            case 0..<0x20:
                throw problem("a control character inside a string")
            default:
                index += 1
            }
        }
        throw problem("an unterminated string")
    }

    /// The character an escape after a backslash stands for.
    private mutating func escape() throws(Problem) -> Unicode.Scalar {
        guard let byte = current else { throw problem("an unterminated string") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let first = try hexQuad()
            if (0xD800...0xDBFF).contains(first) {
                guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                    throw problem("a lone surrogate escape")
                }
                index += 2
                let second = try hexQuad()
                guard (0xDC00...0xDFFF).contains(second),
                    let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
                else { throw problem("a lone surrogate escape") }
                return scalar
            }
            guard let scalar = Unicode.Scalar(first) else { throw problem("a lone surrogate escape") }
            return scalar
        default:
            index -= 1
            throw problem("an unknown escape")
        }
    }

    private mutating func hexQuad() throws(Problem) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = Self.hexValue(byte) else { throw problem("expected four hex digits") }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// A number's text, checked against the grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func number() throws(Problem) -> String {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
            if let byte = current, Self.isDigit(byte) { throw problem("a number with a leading zero") }
        } else {
            try digits()
        }
        if current == UInt8(ascii: ".") {
            index += 1
            try digits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            try digits()
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func digits() throws(Problem) {
        guard let byte = current, Self.isDigit(byte) else { throw problem("expected a digit") }
        while let byte = current, Self.isDigit(byte) { index += 1 }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// Where the first byte that breaks UTF-8 is, or nil when all of them are UTF-8.
    private static func firstInvalidUTF8(in bytes: [UInt8]) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): offset += encoded.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }
}
