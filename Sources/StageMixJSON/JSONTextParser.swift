/// A strict RFC 8259 JSON parser producing `JSONValue`, with line and column in its errors.
public struct JSONTextParser {
    public struct SyntaxError: Error, Sendable, CustomStringConvertible {
        public var line: Int
        public var column: Int
        public var expected: String
        public var found: String

        public var description: String { "expected \(expected), found \(found) (line \(line), column \(column))" }
    }

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    /// Deep enough for any manifest; shallow enough not to overflow the stack.
    private static let maximumDepth = 256

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    public static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> JSONValue {
        var parser = JSONTextParser(bytes)
        if parser.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 } // tolerate a UTF-8 BOM
        let value = try parser.value()
        parser.skipWhitespace()
        if parser.index < parser.bytes.count { throw parser.error(expected: "the end of the document") }
        return value
    }

    // MARK: Values

    private mutating func value() throws(SyntaxError) -> JSONValue {
        skipWhitespace()
        guard let byte = peek else { throw error(expected: "a JSON value") }
        switch byte {
        case UInt8(ascii: "{"): return .object(try object())
        case UInt8(ascii: "["): return .array(try array())
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error(expected: "a JSON value")
        }
    }

    private mutating func object() throws(SyntaxError) -> JSONObject {
        try enter()
        index += 1
        var members: [(key: String, value: JSONValue)] = []
        skipWhitespace()
        if peek == UInt8(ascii: "}") { index += 1; depth -= 1; return JSONObject(members: members) }
        while true {
            skipWhitespace()
            guard peek == UInt8(ascii: "\"") else { throw error(expected: "a member name in double quotes") }
            let key = try string()
            skipWhitespace()
            try expect(":")
            members.append((key, try value()))
            skipWhitespace()
            if peek == UInt8(ascii: ",") { index += 1; continue }
            try expect("}", or: "',' or '}'")
            depth -= 1
            return JSONObject(members: members)
        }
    }

    private mutating func array() throws(SyntaxError) -> [JSONValue] {
        try enter()
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek == UInt8(ascii: "]") { index += 1; depth -= 1; return elements }
        while true {
            elements.append(try value())
            skipWhitespace()
            if peek == UInt8(ascii: ",") { index += 1; continue }
            try expect("]", or: "',' or ']'")
            depth -= 1
            return elements
        }
    }

    private mutating func string() throws(SyntaxError) -> String {
        index += 1 // opening quote
        var scalars = String.UnicodeScalarView()
        var runStart = index
        func flush(_ end: Int) throws(SyntaxError) {
            guard let run = String(validating: bytes[runStart..<end], as: UTF8.self) else {
                throw SyntaxError(line: 0, column: 0, expected: "UTF-8 text", found: "invalid bytes")
            }
            scalars.append(contentsOf: run.unicodeScalars)
        }
        while true {
            guard let byte = peek else { throw error(expected: "a closing '\"'") }
            switch byte {
            case UInt8(ascii: "\""):
                do { try flush(index) } catch { throw self.error(expected: "UTF-8 text") }
                index += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                do { try flush(index) } catch { throw self.error(expected: "UTF-8 text") }
                index += 1
                scalars.append(try escape())
                runStart = index
            case 0..<0x20:
                throw error(expected: "an escaped control character")
            default:
                index += 1
            }
        }
    }

    private mutating func escape() throws(SyntaxError) -> Unicode.Scalar {
        guard let byte = peek else { throw error(expected: "an escape sequence") }
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
            let first = try hex4()
            if (0xD800..<0xDC00).contains(first) {
                guard peek == UInt8(ascii: "\\") else { throw error(expected: "a low surrogate escape") }
                index += 1
                try expect("u")
                let second = try hex4()
                guard (0xDC00..<0xE000).contains(second) else { throw error(expected: "a low surrogate") }
                return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(first) else { throw error(expected: "a valid Unicode scalar") }
            return scalar
        default:
            index -= 1
            throw error(expected: "one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u")
        }
    }

    private mutating func hex4() throws(SyntaxError) -> UInt32 {
        var result: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek, let digit = UInt32(String(UnicodeScalar(byte)), radix: 16) else {
                throw error(expected: "four hexadecimal digits")
            }
            result = result * 16 + digit
            index += 1
        }
        return result
    }

    private mutating func number() throws(SyntaxError) -> JSONNumber {
        let start = index
        var isPlainInteger = true
        if peek == UInt8(ascii: "-") { index += 1 }
        if peek == UInt8(ascii: "0") {
            index += 1
        } else {
            guard digits() > 0 else { throw error(expected: "a digit") }
        }
        if peek == UInt8(ascii: ".") {
            isPlainInteger = false
            index += 1
            guard digits() > 0 else { throw error(expected: "a digit after '.'") }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            isPlainInteger = false
            index += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw error(expected: "an exponent digit") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        let value = Double(text) ?? .nan
        let integer = isPlainInteger ? Int(text) : (value.rounded() == value ? Int(exactly: value) : nil)
        return JSONNumber(text: text, value: value, integer: integer)
    }

    // MARK: Lexing

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func digits() -> Int {
        let start = index
        while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        return index - start
    }

    private mutating func skipWhitespace() {
        while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private mutating func literal(_ word: String) throws(SyntaxError) {
        for expected in word.utf8 {
            guard peek == expected else { throw error(expected: "'\(word)'") }
            index += 1
        }
    }

    private mutating func expect(_ character: Character, or description: String? = nil) throws(SyntaxError) {
        guard let ascii = character.asciiValue, peek == ascii else {
            throw error(expected: description ?? "'\(character)'")
        }
        index += 1
    }

    private mutating func enter() throws(SyntaxError) {
        depth += 1
        if depth > Self.maximumDepth { throw error(expected: "at most \(Self.maximumDepth) levels of nesting") }
    }

    private func error(expected: String) -> SyntaxError {
        var line = 1, column = 1
        for byte in bytes[..<min(index, bytes.count)] {
            if byte == 0x0A { line += 1; column = 1 } else if byte & 0xC0 != 0x80 { column += 1 }
        }
        let found: String
        if let byte = peek {
            found = byte >= 0x20 && byte < 0x7F ? "'\(Character(UnicodeScalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
        } else {
            found = "the end of the document"
        }
        return SyntaxError(line: line, column: column, expected: expected, found: found)
    }
}
