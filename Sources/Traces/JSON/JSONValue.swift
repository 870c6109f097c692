/// A parsed JSON document that keeps object keys in file order, so specs can
/// be echoed back (in `manifest.json` and `report.md`) exactly as written and
/// error messages can point at a JSON path.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Key–value pairs in file order. Duplicate keys are rejected by the parser.
    case object([(key: String, value: JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.number(a), .number(b)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    /// The value under `key` of an object; `nil` for a missing key or a non-object.
    public subscript(key: String) -> JSONValue? {
        guard case let .object(pairs) = self else { return nil }
        return pairs.first { $0.key == key }?.value
    }

    /// A short name of the value's type, for error messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

extension JSONValue {
    /// Compact or pretty JSON text with a stable layout (keys in stored order,
    /// numbers in shortest round-trip form, integers without a fraction).
    public func serialized(pretty: Bool = false, indent: String = "") -> String {
        let step = pretty ? "  " : ""
        let nl = pretty ? "\n" : ""
        let sep = pretty ? ": " : ":"
        switch self {
        case .null: return "null"
        case let .bool(b): return b ? "true" : "false"
        case let .number(d): return JSONValue.format(d)
        case let .string(s): return JSONValue.quote(s)
        case let .array(items):
            if items.isEmpty { return "[]" }
            let inner = indent + step
            return "[" + nl + items.map { inner + $0.serialized(pretty: pretty, indent: inner) }
                .joined(separator: "," + nl) + nl + indent + "]"
        case let .object(pairs):
            if pairs.isEmpty { return "{}" }
            let inner = indent + step
            return "{" + nl + pairs.map {
                inner + JSONValue.quote($0.key) + sep + $0.value.serialized(pretty: pretty, indent: inner)
            }.joined(separator: "," + nl) + nl + indent + "}"
        }
    }

    static func format(_ d: Double) -> String {
        if d.isNaN || d.isInfinite { return "null" }
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return "\(d)"
    }

    /// The one JSON string writer (``JSONText``, shared with the external policy's messages).
    static func quote(_ s: String) -> String { JSONText.quote(s) }
}
