/// The value of a policy parameter, as written in an experiment file's `params`
/// (any JSON value; encoded and decoded as that plain JSON value). Not to be
/// confused with the Experiments module's general `JSONValue`.
public enum ParameterValue: Sendable, Hashable, Codable, CustomStringConvertible {
    case number(Double)
    case string(String)
    case bool(Bool)
    case null
    case array([ParameterValue])
    case object([String: ParameterValue])

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let d = try? c.decode(Double.self) { self = .number(d) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([ParameterValue].self) { self = .array(a) }
        else { self = .object(try c.decode([String: ParameterValue].self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .number(let d): try c.encode(d)
        case .string(let s): try c.encode(s)
        case .bool(let b): try c.encode(b)
        case .null: try c.encodeNil()
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }

    public var description: String {
        switch self {
        case .number(let d): d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
        case .string(let s): "\"\(s)\""
        case .bool(let b): String(b)
        case .null: "null"
        case .array(let a): "[" + a.map(\.description).joined(separator: ", ") + "]"
        case .object(let o): "{" + o.keys.sorted().map { "\"\($0)\": \(o[$0]!)" }.joined(separator: ", ") + "}"
        }
    }
}

/// A policy as an experiment file names it:
/// `{"name": "exponential-backoff", "params": {"initial": "30s"},
///   "base": {"name": "coalescing", "params": {"window": "10m"},
///            "base": {"name": "usage-predictor"}}}`.
/// `params` may be omitted (all defaults); `base` is required for wrappers
/// and rejected otherwise.
public struct PolicyConfiguration: Sendable, Hashable, Codable {
    public var name: String
    public var params: [String: ParameterValue]
    private var baseStorage: [PolicyConfiguration]

    /// The wrapped policy (wrappers only).
    public var base: PolicyConfiguration? {
        get { baseStorage.first }
        set { baseStorage = newValue.map { [$0] } ?? [] }
    }

    public init(name: String, params: [String: ParameterValue] = [:], base: PolicyConfiguration? = nil) {
        self.name = name
        self.params = params
        self.baseStorage = base.map { [$0] } ?? []
    }

    private enum CodingKeys: String, CodingKey { case name, params, base }

    public init(from decoder: any Decoder) throws {
        let keys = try decoder.container(keyedBy: PolicyAnyKey.self)
        for k in keys.allKeys where CodingKeys(stringValue: k.stringValue) == nil {
            throw DecodingError.dataCorrupted(.init(codingPath: keys.codingPath + [k],
                debugDescription: "unknown key \"\(k.stringValue)\" in a policy; expected name, params, base"))
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        params = try c.decodeIfPresent([String: ParameterValue].self, forKey: .params) ?? [:]
        baseStorage = try c.decodeIfPresent(PolicyConfiguration.self, forKey: .base).map { [$0] } ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        if !params.isEmpty { try c.encode(params, forKey: .params) }
        try c.encodeIfPresent(base, forKey: .base)
    }
}

struct PolicyAnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
