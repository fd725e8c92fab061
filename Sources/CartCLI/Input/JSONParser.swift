import CartCore

/// A strict RFC 8259 parser: one value, optionally surrounded by white space, and nothing
/// after it. Strings must be valid UTF-8 with no raw control characters and no lone
/// surrogate escapes; numbers follow the JSON grammar and keep their exact text; an object
/// may not repeat a key. One leading UTF-8 byte order mark is ignored (RFC 8259 §8.1 allows
/// a parser to), since editors on some systems add one.
///
/// Import files are read with this rather than the toolchain's `JSONDecoder`, which cannot
/// hand over a number token as its text (a price must never pass through a binary float, and
/// its `Decimal` drops trailing zeros and digits past the 38th without a word), accepts
/// trailing commas and repeated keys, and names no line or column in its errors.
struct JSONParser {
    /// What is wrong, and where (line and column count from 1; the column counts bytes).
    struct Problem: Error, Equatable, CustomStringConvertible {
        let line: Int
        let column: Int
        let message: String

        var description: String { "line \(line), column \(column): \(message)" }
    }

    /// Deeper nesting than this is refused rather than risking the stack.
    static let maxDepth = 256

    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Parses the whole input as one JSON value.
    static func parse(_ bytes: [UInt8]) throws(Problem) -> JSONValue {
        var parser = JSONParser(bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.problem("Unexpected text after the JSON value.") }
        return value
    }

    private mutating func value(depth: Int) throws(Problem) -> JSONValue {
        guard depth < Self.maxDepth else { throw problem("Nesting is deeper than \(Self.maxDepth) levels.") }
        guard let byte = peek() else { throw problem("Unexpected end of input; expected a value.") }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw problem("Unexpected character; expected a value.")
        }
    }

    private mutating func object(depth: Int) throws(Problem) -> JSONValue {
        index += 1
        var members: [(key: String, value: JSONValue)] = []
        var keys: Set<String> = []
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            return .object([])
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw problem("Expected a string key.") }
            let keyStart = problem("")
            let key = try string()
            guard keys.insert(key).inserted else {
                throw Problem(
                    line: keyStart.line, column: keyStart.column,
                    message: "The key \"\(DisplayText.clean(key))\" appears twice.")
            }
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw problem("Expected ':' after a key.") }
            index += 1
            skipWhitespace()
            members.append((key, try value(depth: depth + 1)))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return .object(members)
            default: throw problem("Expected ',' or '}' after an object member.")
            }
        }
    }

    private mutating func array(depth: Int) throws(Problem) -> JSONValue {
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            return .array([])
        }
        while true {
            skipWhitespace()
            items.append(try value(depth: depth + 1))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return .array(items)
            default: throw problem("Expected ',' or ']' after an array element.")
            }
        }
    }

    private mutating func literal(_ word: String, _ value: JSONValue) throws(Problem) -> JSONValue {
        let expected = Array(word.utf8)
        guard bytes[index...].starts(with: expected) else { throw problem("Unexpected word; expected a value.") }
        index += expected.count
        return value
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, kept as text.
    private mutating func number() throws(Problem) -> JSONValue {
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        if peek() == UInt8(ascii: "0") {
            index += 1
        } else {
            guard digits() > 0 else { throw problem("Expected a digit.") }
        }
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw problem("Expected a digit after the decimal point.") }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw problem("Expected a digit in the exponent.") }
        }
        // ASCII by construction, so decoding cannot fail.
        return .number(String(decoding: bytes[start..<index], as: UTF8.self))
    }

    private mutating func digits() -> Int {
        var count = 0
        while let byte = peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
            index += 1
            count += 1
        }
        return count
    }

    private mutating func string() throws(Problem) -> String {
        index += 1
        var raw: [UInt8] = []
        while true {
            guard let byte = peek() else { throw problem("A string is never closed.") }
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let text = String(validating: raw, as: UTF8.self) else {
                    throw problem("A string is not valid UTF-8.")
                }
                return text
            case UInt8(ascii: "\\"):
                index += 1
                try escape(into: &raw)
            case 0..<0x20:
                throw problem("A control character in a string must be escaped.")
            default:
                raw.append(byte)
                index += 1
            }
        }
    }

    private mutating func escape(into raw: inout [UInt8]) throws(Problem) {
        guard let byte = peek() else { throw problem("A string is never closed.") }
        index += 1
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F, UInt8(ascii: "b"): 0x08,
            UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
        ]
        if let replacement = simple[byte] {
            raw.append(replacement)
            return
        }
        guard byte == UInt8(ascii: "u") else { throw problem("Unknown escape sequence.") }
        var code = try hex4()
        if (0xD800...0xDBFF).contains(code) {
            guard bytes[index...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) else {
                throw problem("A high surrogate escape must be followed by a low surrogate escape.")
            }
            index += 2
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw problem("Invalid low surrogate escape.") }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(code) {
            throw problem("A low surrogate escape without a high surrogate.")
        }
        guard let scalar = Unicode.Scalar(code) else { throw problem("Invalid \\u escape.") }
        raw.append(contentsOf: scalar.utf8)
    }

    private mutating func hex4() throws(Problem) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek(), let digit = Self.hexValue(byte) else {
                throw problem("Expected four hexadecimal digits after \\u.")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    private func peek() -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    /// A problem at the current position.
    private func problem(_ message: String) -> Problem {
        var line = 1
        var lineStart = 0
        for position in 0..<min(index, bytes.count) where bytes[position] == 0x0A {
            line += 1
            lineStart = position + 1
        }
        return Problem(line: line, column: index - lineStart + 1, message: message)
    }
}
