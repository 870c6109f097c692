/// A JSON value read straight from a reply line's bytes: the fast path of
/// the replies bgbench reads at every round trip (`decision`, `plans`).
///
/// Why not Foundation: `JSONSerialization` hands back `Any`, and every
/// `as? Int`, `as? String`, `as? [String: Any]` on it is a dynamic cast
/// through Foundation's bridging — about 35 µs for a `plans` reply with
/// six rules (JSONDecoder: the same), more than the Python process spends
/// on the message. This parser reads the same grammar (RFC 8259) into
/// plain Swift values in a few µs. It gives nil on anything it does not
/// accept; the caller then reads the line the slow way
/// (``ExternalReply/object(_:)``), which names what is wrong, so the
/// errors, and every reply the slow path accepts, are unchanged.
enum ReplyJSON: Equatable {
    case null
    case bool(Bool)
    /// A number written without fraction or exponent that fits Int64.
    case int(Int64)
    /// Any other number.
    case number
    case string(String)
    case array([ReplyJSON])
    case object([String: ReplyJSON])

    /// The value of a whole line (whitespace around it allowed), or nil.
    static func parse(_ line: [UInt8]) -> ReplyJSON? {
        var reader = Reader(bytes: line)
        guard let v = reader.value(depth: 0) else { return nil }
        reader.skipSpace()
        return reader.at == line.count ? v : nil
    }

    subscript(key: String) -> ReplyJSON? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    private struct Reader {
        let bytes: [UInt8]
        var at = 0

        /// Nesting beyond this is refused (the slow path then reads it):
        /// a hostile reply cannot exhaust the stack.
        static let maxDepth = 64

        mutating func skipSpace() {
            while at < bytes.count, bytes[at] == 0x20 || bytes[at] == 0x0A || bytes[at] == 0x0D || bytes[at] == 0x09 { at += 1 }
        }

        mutating func literal(_ word: StaticString) -> Bool {
            let n = word.utf8CodeUnitCount
            guard at + n <= bytes.count else { return false }
            for i in 0..<n where bytes[at + i] != word.utf8Start[i] { return false }
            at += n
            return true
        }

        mutating func value(depth: Int) -> ReplyJSON? {
            guard depth < Self.maxDepth else { return nil }
            skipSpace()
            guard at < bytes.count else { return nil }
            switch bytes[at] {
            case UInt8(ascii: "{"):
                at += 1
                var o: [String: ReplyJSON] = [:]
                skipSpace()
                if at < bytes.count, bytes[at] == UInt8(ascii: "}") { at += 1; return .object(o) }
                while true {
                    skipSpace()
                    guard let key = string() else { return nil }
                    skipSpace()
                    guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { return nil }
                    at += 1
                    guard let v = value(depth: depth + 1) else { return nil }
                    o[key] = v
                    skipSpace()
                    guard at < bytes.count else { return nil }
                    if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
                    if bytes[at] == UInt8(ascii: "}") { at += 1; return .object(o) }
                    return nil
                }
            case UInt8(ascii: "["):
                at += 1
                var a: [ReplyJSON] = []
                skipSpace()
                if at < bytes.count, bytes[at] == UInt8(ascii: "]") { at += 1; return .array(a) }
                while true {
                    guard let v = value(depth: depth + 1) else { return nil }
                    a.append(v)
                    skipSpace()
                    guard at < bytes.count else { return nil }
                    if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
                    if bytes[at] == UInt8(ascii: "]") { at += 1; return .array(a) }
                    return nil
                }
            case UInt8(ascii: "\""): return string().map { .string($0) }
            case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return literal("null") ? .null : nil
            default: return number()
            }
        }

        /// -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
        mutating func number() -> ReplyJSON? {
            let start = at
            var negative = false
            if at < bytes.count, bytes[at] == UInt8(ascii: "-") { negative = true; at += 1 }
            let digitsStart = at
            var magnitude: UInt64 = 0
            var fits = true
            while at < bytes.count, bytes[at] &- 48 < 10 {
                let (m, o1) = magnitude.multipliedReportingOverflow(by: 10)
                let (s, o2) = m.addingReportingOverflow(UInt64(bytes[at] &- 48))
                if o1 || o2 { fits = false }
                magnitude = s
                at += 1
            }
            let digits = at - digitsStart
            guard digits > 0, !(digits > 1 && bytes[digitsStart] == UInt8(ascii: "0")) else { at = start; return nil }
            var whole = true
            if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
                at += 1
                let f = at
                while at < bytes.count, bytes[at] &- 48 < 10 { at += 1 }
                guard at > f else { return nil }
                whole = false
            }
            if at < bytes.count, bytes[at] | 0x20 == UInt8(ascii: "e") {
                at += 1
                if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") { at += 1 }
                let e = at
                while at < bytes.count, bytes[at] &- 48 < 10 { at += 1 }
                guard at > e else { return nil }
                whole = false
            }
            guard whole, fits else { return .number }
            if negative {
                guard magnitude <= UInt64(Int64.max) + 1 else { return .number }
                return .int(magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude))
            }
            guard magnitude <= UInt64(Int64.max) else { return .number }
            return .int(Int64(magnitude))
        }

        /// A string at `at` (its opening quote), escapes decoded; nil if
        /// malformed (a control character, a bad escape, no closing quote,
        /// invalid UTF-8).
        mutating func string() -> String? {
            guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { return nil }
            at += 1
            let start = at
            // The common case: no escape, so the bytes are the string.
            while at < bytes.count, bytes[at] != UInt8(ascii: "\""), bytes[at] != UInt8(ascii: "\\"), bytes[at] >= 0x20 { at += 1 }
            guard at < bytes.count else { return nil }
            if bytes[at] == UInt8(ascii: "\"") {
                at += 1
                return String(validating: bytes[start..<(at - 1)], as: UTF8.self)
            }
            guard bytes[at] == UInt8(ascii: "\\") else { return nil }
            var out = Array(bytes[start..<at])
            while at < bytes.count {
                let b = bytes[at]
                if b == UInt8(ascii: "\"") { at += 1; return String(validating: out, as: UTF8.self) }
                guard b >= 0x20 else { return nil }
                if b != UInt8(ascii: "\\") { out.append(b); at += 1; continue }
                at += 1
                guard at < bytes.count else { return nil }
                let e = bytes[at]
                at += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    guard var scalar = hex4() else { return nil }
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard literal("\\u"), let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let u = Unicode.Scalar(scalar) else { return nil }
                    out.append(contentsOf: Array(String(Character(u)).utf8))
                default: return nil
                }
            }
            return nil
        }

        mutating func hex4() -> UInt32? {
            guard at + 4 <= bytes.count else { return nil }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let b = bytes[at] | 0x20
                let d: UInt8
                if b &- 48 < 10 { d = b &- 48 } else if b >= UInt8(ascii: "a") && b <= UInt8(ascii: "f") { d = b - 87 } else { return nil }
                v = v << 4 | UInt32(d)
                at += 1
            }
            return v
        }
    }
}
