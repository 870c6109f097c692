/// A small strict JSON parser (RFC 8259) that reports syntax errors with a
/// line and column, which Foundation's decoder does not. In Policies, not
/// Experiments, because the external policy reads its processes' replies
/// with it too (``ExternalFastReplies``): into plain Swift values, without
/// Foundation's bridging casts.
public struct JSONSyntaxError: Error, Equatable, CustomStringConvertible {
    public let line: Int
    public let column: Int
    public let message: String
    public var description: String { "line \(line), column \(column): \(message)" }
}

public enum JSONParser {
    /// Parses one JSON document; trailing non-space text is an error.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(bytes: Array(text.utf8))
    }

    /// Parses one JSON document given as UTF-8 bytes.
    public static func parse(bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        var p = Cursor(bytes)
        p.skipSpace()
        let v = try p.value(depth: 0)
        p.skipSpace()
        if !p.atEnd { throw p.error("unexpected text after the JSON value") }
        return v
    }

    /// Written by JavaScript and Python for a non-finite double, but not JSON.
    static let nonFinite = "NaN and Infinity are not JSON numbers; give a finite number"

    private struct Cursor {
        let bytes: [UInt8]
        var i = 0
        init(_ b: [UInt8]) { bytes = b }

        var atEnd: Bool { i >= bytes.count }
        var peek: UInt8? { atEnd ? nil : bytes[i] }

        func error(_ message: String) -> JSONSyntaxError {
            var line = 1, col = 1
            for b in bytes[..<min(i, bytes.count)] {
                if b == UInt8(ascii: "\n") { line += 1; col = 1 } else if b & 0xC0 != 0x80 { col += 1 }
            }
            return JSONSyntaxError(line: line, column: col, message: message)
        }

        mutating func skipSpace() {
            while let b = peek, b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { i += 1 }
        }

        mutating func expect(_ literal: String, _ v: JSONValue) throws(JSONSyntaxError) -> JSONValue {
            for b in literal.utf8 {
                guard peek == b else { throw error("invalid literal; expected \(literal)") }
                i += 1
            }
            return v
        }

        mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
            guard depth < 200 else { throw error("nesting deeper than 200 levels") }
            guard let b = peek else { throw error("unexpected end of input; expected a value") }
            switch b {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try expect("true", .bool(true))
            case UInt8(ascii: "f"): return try expect("false", .bool(false))
            case UInt8(ascii: "n"): return try expect("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            case UInt8(ascii: "N"), UInt8(ascii: "I"): throw error(JSONParser.nonFinite)
            default: throw error("unexpected character '\(Character(Unicode.Scalar(b)))'; expected a value")
            }
        }

        mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
            i += 1
            var pairs: [(key: String, value: JSONValue)] = []
            skipSpace()
            if peek == UInt8(ascii: "}") { i += 1; return .object(pairs) }
            while true {
                skipSpace()
                guard peek == UInt8(ascii: "\"") else { throw error("expected a quoted key") }
                let keyStart = self
                let key = try string()
                if pairs.contains(where: { $0.key == key }) {
                    throw keyStart.error("duplicate key \"\(key)\"")
                }
                skipSpace()
                guard peek == UInt8(ascii: ":") else { throw error("expected ':' after key \"\(key)\"") }
                i += 1
                skipSpace()
                pairs.append((key, try value(depth: depth + 1)))
                skipSpace()
                if peek == UInt8(ascii: ",") { i += 1; continue }
                if peek == UInt8(ascii: "}") { i += 1; return .object(pairs) }
                throw error("expected ',' or '}' in object")
            }
        }

        mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
            i += 1
            var items: [JSONValue] = []
            skipSpace()
            if peek == UInt8(ascii: "]") { i += 1; return .array(items) }
            while true {
                skipSpace()
                items.append(try value(depth: depth + 1))
                skipSpace()
                if peek == UInt8(ascii: ",") { i += 1; continue }
                if peek == UInt8(ascii: "]") { i += 1; return .array(items) }
                throw error("expected ',' or ']' in array")
            }
        }

        mutating func string() throws(JSONSyntaxError) -> String {
            i += 1
            var out: [UInt8] = []
            while true {
                guard let b = peek else { throw error("unterminated string") }
                i += 1
                switch b {
                case UInt8(ascii: "\""):
                    return String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard let e = peek else { throw error("unterminated escape") }
                    i += 1
                    switch e {
                    case UInt8(ascii: "\""): out.append(0x22)
                    case UInt8(ascii: "\\"): out.append(0x5C)
                    case UInt8(ascii: "/"): out.append(0x2F)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "u"):
                        var code = try hex4()
                        if (0xD800..<0xDC00).contains(code) {
                            guard peek == UInt8(ascii: "\\") else { throw error("unpaired surrogate") }
                            i += 1
                            guard peek == UInt8(ascii: "u") else { throw error("unpaired surrogate") }
                            i += 1
                            let low = try hex4()
                            guard (0xDC00..<0xE000).contains(low) else { throw error("invalid surrogate pair") }
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
                        out.append(contentsOf: Array(String(Character(scalar)).utf8))
                    default: throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))'")
                    }
                default:
                    if b < 0x20 { throw error("control character in string; escape it") }
                    out.append(b)
                }
            }
        }

        mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
            var v: UInt32 = 0
            for _ in 0..<4 {
                guard let b = peek else { throw error("short \\u escape") }
                let d: UInt32
                switch b {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - 48)
                case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - 87)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - 55)
                default: throw error("invalid hex digit in \\u escape")
                }
                v = v * 16 + d
                i += 1
            }
            return v
        }

        mutating func number() throws(JSONSyntaxError) -> JSONValue {
            let start = i
            func digits(_ c: inout Cursor) -> Int {
                var n = 0
                while let b = c.peek, b >= 48, b <= 57 { c.i += 1; n += 1 }
                return n
            }
            if peek == UInt8(ascii: "-") { i += 1 }
            if peek == UInt8(ascii: "I") { throw error(JSONParser.nonFinite) }
            if peek == UInt8(ascii: "0") {
                i += 1
            } else if digits(&self) == 0 {
                throw error("invalid number")
            }
            if peek == UInt8(ascii: ".") {
                i += 1
                if digits(&self) == 0 { throw error("invalid number: digits expected after '.'") }
            }
            if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
                i += 1
                if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { i += 1 }
                if digits(&self) == 0 { throw error("invalid number: digits expected in exponent") }
            }
            let text = String(decoding: bytes[start..<i], as: UTF8.self)
            guard let d = Double(text), d.isFinite else {
                throw error("number \(text) is beyond the range of a double (about ±1.8e308)")
            }
            return .number(d)
        }
    }
}
