/// A strict RFC 8259 reader: one value, white space around it allowed, nothing after it.
///
/// It refuses what a lenient parser lets through and another reader might take differently:
/// bytes that are not UTF-8, lone surrogate escapes, raw control characters in strings, a
/// repeated key, trailing commas, leading zeros, and nesting past a limit the caller sets.
///
/// The toolchain's `JSONDecoder` is not used for input, because it cannot hand over a number
/// token as its text (a price must never pass through a binary float, and its `Decimal` drops
/// trailing zeros and digits past the 38th without a word), accepts trailing commas and
/// repeated keys, and names no position in its errors.
package struct JSONReader {
    /// What is wrong and where: the byte offset (from 0), and the line and column (from 1; the
    /// column counts bytes).
    package struct Problem: Error, Equatable, Sendable {
        package let offset: Int
        package let line: Int
        package let column: Int
        /// What is wrong, in lower case without a final period: `expected a value`.
        package let reason: String

        package init(offset: Int, line: Int, column: Int, reason: String) {
            self.offset = offset
            self.line = line
            self.column = column
            self.reason = reason
        }
    }

    private let bytes: [UInt8]
    private let maxDepth: Int
    private var index = 0

    private init(_ bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    /// The one value `bytes` holds, refusing nesting deeper than `maxDepth` (an array or object
    /// is one level) rather than risking the stack.
    package static func parse(_ bytes: [UInt8], maxDepth: Int) throws(Problem) -> JSONValue {
        var reader = JSONReader(bytes, maxDepth: maxDepth)
        if let offset = firstInvalidUTF8(in: bytes) {
            reader.index = offset
            throw reader.problem("a byte that is not UTF-8")
        }
        reader.skipWhitespace()
        let value = try reader.value(depth: 1)
        reader.skipWhitespace()
        guard reader.index == bytes.count else { throw reader.problem("text after the value") }
        return value
    }

    /// A problem at the current byte; past the end, the input ended early.
    private func problem(_ reason: String) -> Problem {
        problem(reason, at: index)
    }

    private func problem(_ reason: String, at offset: Int) -> Problem {
        var line = 1
        var lineStart = 0
        for position in 0..<min(offset, bytes.count) where bytes[position] == 0x0A {
            line += 1
            lineStart = position + 1
        }
        return Problem(
            offset: offset, line: line, column: offset - lineStart + 1,
            reason: offset < bytes.count ? reason : "the text ends early")
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    private mutating func expect(_ byte: UInt8, _ reason: String) throws(Problem) {
        guard current == byte else { throw problem(reason) }
        index += 1
    }

    /// A value; an array or object in it would be at nesting level `depth`.
    private mutating func value(depth: Int) throws(Problem) -> JSONValue {
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

    private mutating func literal(_ word: StaticString, _ value: JSONValue) throws(Problem) -> JSONValue {
        for byte in UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount) {
            try expect(byte, "expected a value")
        }
        return value
    }

    private mutating func enter(depth: Int) throws(Problem) {
        guard depth <= maxDepth else { throw problem("nesting deeper than \(maxDepth) levels") }
        index += 1
    }

    private mutating func object(depth: Int) throws(Problem) -> JSONValue {
        try enter(depth: depth)
        var members: [JSONMember] = []
        var keys: Set<String> = []
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
            guard keys.insert(key).inserted else { throw problem("the key \"\(key)\" appears twice", at: keyOffset) }
            skipWhitespace()
            try expect(UInt8(ascii: ":"), "expected ':' after a key")
            skipWhitespace()
            members.append(JSONMember(key, try value(depth: depth + 1)))
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                index += 1
                continue
            }
            try expect(UInt8(ascii: "}"), "expected ',' or '}' after a member")
            return .object(members)
        }
    }

    private mutating func array(depth: Int) throws(Problem) -> JSONValue {
        try enter(depth: depth)
        var elements: [JSONValue] = []
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
            try expect(UInt8(ascii: "]"), "expected ',' or ']' after an element")
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
