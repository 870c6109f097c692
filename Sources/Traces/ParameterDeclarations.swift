// One declaration per parameter of a configuration type (a device feature,
// a mechanism, a world model): its JSON key, kind, range (with its unit),
// whether it is required, and the source of its default, in one line of the
// type's `parameters` table; the default is the type's `init()` value. From
// that table alone come:
// - decoding: unknown keys refused naming the known ones, each value read
//   under the one number rule (`WholeNumber`) and checked against its range
//   where it is read, so the error carries its JSON path;
// - encoding: every key, defaults included (what the spec reader compares
//   a spec against to find keys no type knows);
// - validation of a value built in code (`rangeProblem`);
// - the documentation tables (`DocumentationTests` checks every row) and the
//   fuzz test over every numeric field (`DeclaredParameterFuzzTests`), both
//   walking `ParameterInfo`.
import SimCore

/// A JSON object key, any string.
public struct ParameterKey: CodingKey, Sendable {
    public var stringValue: String
    public var intValue: Int? { nil }
    public init(_ key: String) { stringValue = key }
    public init(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { nil }
}

/// What a declared parameter holds.
public enum ParameterKind: String, Sendable {
    /// A finite number in its range.
    case real
    /// A whole number in its range.
    case integer
    /// A duration string (`"30s"`, `"5m"`), its seconds in the range.
    case duration
    /// `true` or `false`.
    case flag
    /// One of a fixed set of strings.
    case choice
    /// Free text (a name, a citation).
    case text
    /// An array of objects of one declared type (its declarations in `ParameterInfo.children`).
    case list
    /// An object (with its own declarations in `ParameterInfo.children`, if any).
    case object
}

/// One parameter of `Root`, declared once (see the file's header).
public struct Parameter<Root>: Sendable {
    public typealias Kind = ParameterKind

    public let key: String
    public let kind: Kind
    /// The values allowed (numbers and durations), with the unit.
    public let range: ValueRange?
    /// Where the default comes from, or "assumption".
    public let source: String
    /// A spec must give it: the default is a placeholder.
    public let isRequired: Bool
    /// The declarations of an object parameter's type, if it declares them.
    public let children: [ParameterInfo]
    let decode: @Sendable (inout Root, KeyedDecodingContainer<ParameterKey>) throws -> Void
    let encode: @Sendable (Root, inout KeyedEncodingContainer<ParameterKey>) throws -> Void
    /// The value as a number (durations in seconds); nil when it has none.
    public let number: @Sendable (Root) -> Double?
    /// What is wrong with the value in `root` (path relative to `root`, message).
    let problem: @Sendable (Root) -> (path: String, message: String)?

    /// This parameter of a part of `Outer` (at `part`), under the same key in
    /// `Outer`'s own object: for a part whose keys are written flat in its
    /// owner's (the OS rules' keys sit directly under `device`), so the part
    /// declares them once and its owner lists them.
    public func lifted<Outer>(_ part: WritableKeyPath<Outer, Root> & Sendable) -> Parameter<Outer> {
        let decode = self.decode, encode = self.encode, number = self.number, problem = self.problem
        return Parameter<Outer>(key, kind, range: range, source: source, required: isRequired, children: children,
                                decode: { outer, c in try decode(&outer[keyPath: part], c) },
                                encode: { outer, c in try encode(outer[keyPath: part], &c) },
                                number: { number($0[keyPath: part]) }, problem: { problem($0[keyPath: part]) })
    }

    /// The parameter described without its `Root`, with the default read from `defaults`.
    public func info(defaults: Root) -> ParameterInfo {
        ParameterInfo(key: key, kind: kind, range: range, source: source, isRequired: isRequired,
                      defaultNumber: number(defaults), children: children)
    }
}

/// A declared parameter without its type: for the documentation check and
/// the fuzz test, which walk every declared type from the device down.
public struct ParameterInfo: Sendable {
    public let key: String
    public let kind: ParameterKind
    public let range: ValueRange?
    public let source: String
    public let isRequired: Bool
    /// The default as a number (durations in seconds), if it is one.
    public let defaultNumber: Double?
    public let children: [ParameterInfo]

    /// Every numeric leaf under this one, each with its path relative to
    /// the parent (`"work.cpuSeconds"`).
    public var numericLeaves: [(path: String, info: ParameterInfo)] {
        if kind == .object { return children.flatMap { c in c.numericLeaves.map { ("\(key).\($0.path)", $0.info) } } }
        if kind == .list { return children.flatMap { c in c.numericLeaves.map { ("\(key)[].\($0.path)", $0.info) } } }
        return range == nil ? [] : [(key, self)]
    }
}

extension Parameter {
    init(_ key: String, _ kind: Kind, range: ValueRange?, source: String, required: Bool = false,
         children: [ParameterInfo] = [],
         decode: @escaping @Sendable (inout Root, KeyedDecodingContainer<ParameterKey>) throws -> Void,
         encode: @escaping @Sendable (Root, inout KeyedEncodingContainer<ParameterKey>) throws -> Void,
         number: @escaping @Sendable (Root) -> Double? = { _ in nil },
         problem: @escaping @Sendable (Root) -> (path: String, message: String)? = { _ in nil }) {
        self.key = key; self.kind = kind; self.range = range; self.source = source; isRequired = required
        self.children = children; self.decode = decode; self.encode = encode; self.number = number
        self.problem = problem
    }

    /// A real number in `range` (`required`: no default; a spec must give it).
    public static func real(_ key: String, _ path: WritableKeyPath<Root, Double> & Sendable, _ range: ValueRange,
                            required: Bool = false, source: String) -> Parameter {
        let k = ParameterKey(key)
        return Parameter(key, .real, range: range, source: source, required: required, decode: { root, c in
            let v = required ? try c.decode(Double.self, forKey: k) : try c.decodeIfPresent(Double.self, forKey: k)
            guard let v else { return }
            if let m = range.problem(v) { throw DecodingError.dataCorruptedError(forKey: k, in: c, debugDescription: m) }
            root[keyPath: path] = v
        }, encode: { root, c in try c.encode(root[keyPath: path], forKey: k) },
           number: { $0[keyPath: path] },
           problem: { root in range.problem(root[keyPath: path]).map { (key, $0) } })
    }

    /// A real number in `range`, or absent (nil: the type says what that means).
    public static func real(_ key: String, _ path: WritableKeyPath<Root, Double?> & Sendable, _ range: ValueRange,
                            source: String) -> Parameter {
        let k = ParameterKey(key)
        return Parameter(key, .real, range: range, source: source, decode: { root, c in
            guard let v = try c.decodeIfPresent(Double.self, forKey: k) else { return }
            if let m = range.problem(v) { throw DecodingError.dataCorruptedError(forKey: k, in: c, debugDescription: m) }
            root[keyPath: path] = v
        }, encode: { root, c in try c.encodeIfPresent(root[keyPath: path], forKey: k) },
           number: { $0[keyPath: path] },
           problem: { root in root[keyPath: path].flatMap { range.problem($0) }.map { (key, $0) } })
    }

    /// A whole number in `range` (the one number rule: ``WholeNumber``).
    public static func integer(_ key: String, _ path: WritableKeyPath<Root, Int> & Sendable, _ range: ClosedRange<Int>,
                               unit: String = "", source: String) -> Parameter {
        let k = ParameterKey(key)
        let numbers = ValueRange(integers: range, unit: unit)
        return Parameter(key, .integer, range: numbers, source: source, decode: { root, c in
            root[keyPath: path] = try c.int(k, default: root[keyPath: path], in: range)
        }, encode: { root, c in try c.encode(root[keyPath: path], forKey: k) },
           number: { Double($0[keyPath: path]) },
           problem: { root in range.contains(root[keyPath: path]) ? nil
               : (key, "\(root[keyPath: path]) is out of range; allowed: \(numbers)") })
    }

    /// A duration string whose seconds are in `range`.
    public static func duration(_ key: String, _ path: WritableKeyPath<Root, SimDuration> & Sendable,
                                _ range: ValueRange, source: String) -> Parameter {
        let k = ParameterKey(key)
        return Parameter(key, .duration, range: range, source: source, decode: { root, c in
            guard let text = try c.decodeIfPresent(String.self, forKey: k) else { return }
            let d: SimDuration
            do { d = try SimDuration(parsing: text) } catch {
                throw DecodingError.dataCorruptedError(forKey: k, in: c, debugDescription: String(describing: error))
            }
            if let m = range.problem(d) { throw DecodingError.dataCorruptedError(forKey: k, in: c, debugDescription: m) }
            root[keyPath: path] = d
        }, encode: { root, c in try c.encode(root[keyPath: path].description, forKey: k) },
           number: { $0[keyPath: path].seconds },
           problem: { root in range.problem(root[keyPath: path]).map { (key, $0) } })
    }

    /// A duration string whose seconds are in `range`, or none: absent keeps
    /// the default, `null` is none (what none means, the type says).
    public static func duration(_ key: String, _ path: WritableKeyPath<Root, SimDuration?> & Sendable,
                                _ range: ValueRange, source: String) -> Parameter {
        let k = ParameterKey(key)
        return Parameter(key, .duration, range: range, source: source, decode: { root, c in
            guard c.contains(k) else { return }
            guard let text = try c.decodeIfPresent(String.self, forKey: k) else { root[keyPath: path] = nil; return }
            let d: SimDuration
            do { d = try SimDuration(parsing: text) } catch {
                throw DecodingError.dataCorruptedError(forKey: k, in: c, debugDescription: String(describing: error))
            }
            if let m = range.problem(d) { throw DecodingError.dataCorruptedError(forKey: k, in: c, debugDescription: m) }
            root[keyPath: path] = d
        }, encode: { root, c in
            // None is written as null: an absent key would read back as the default.
            if let d = root[keyPath: path] { try c.encode(d.description, forKey: k) } else { try c.encodeNil(forKey: k) }
        }, number: { $0[keyPath: path]?.seconds },
           problem: { root in root[keyPath: path].flatMap { range.problem($0) }.map { (key, $0) } })
    }

    /// `true` or `false`.
    public static func flag(_ key: String, _ path: WritableKeyPath<Root, Bool> & Sendable, source: String) -> Parameter {
        value(key, path, kind: .flag, source: source)
    }

    /// A string (`required`: a spec must give it; no default stands in).
    public static func text(_ key: String, _ path: WritableKeyPath<Root, String> & Sendable, required: Bool = false,
                            source: String) -> Parameter {
        let k = ParameterKey(key)
        return Parameter(key, .text, range: nil, source: source, required: required, decode: { root, c in
            if required { root[keyPath: path] = try c.decode(String.self, forKey: k) }
            else if let v = try c.decodeIfPresent(String.self, forKey: k) { root[keyPath: path] = v }
        }, encode: { root, c in try c.encode(root[keyPath: path], forKey: k) })
    }

    /// One of the string values of `T`.
    public static func choice<T: Codable & Sendable & RawRepresentable>(
        _ key: String, _ path: WritableKeyPath<Root, T> & Sendable, source: String) -> Parameter where T.RawValue == String {
        value(key, path, kind: .choice, source: source)
    }

    /// An object of a type that declares its own parameters, written in
    /// part: the keys it omits keep the values of the default object (so an
    /// app's `"beginBackgroundTask": {"work": {"cpuSeconds": 2}}` keeps the
    /// rest of that feature's own default work). Absent or null: the default.
    public static func object<T: DeclaredParameters>(_ key: String, _ path: WritableKeyPath<Root, T> & Sendable,
                                                     source: String = "its own keys") -> Parameter {
        let k = ParameterKey(key)
        return Parameter(key, .object, range: nil, source: source, children: T.declarations, decode: { root, c in
            guard c.contains(k), try !c.decodeNil(forKey: k) else { return }
            root[keyPath: path] = try T(from: try c.superDecoder(forKey: k), missingKeysFrom: root[keyPath: path])
        }, encode: { root, c in try c.encode(root[keyPath: path], forKey: k) },
           problem: { root in root[keyPath: path].rangeProblem.map { ("\(key).\($0.path)", $0.message) } })
    }

    /// An object that may be absent or null (nil: the feature is off); the
    /// keys it omits keep the values of `T()`.
    public static func object<T: DeclaredParameters>(_ key: String, _ path: WritableKeyPath<Root, T?> & Sendable,
                                                     source: String = "its own keys; absent: off") -> Parameter {
        let k = ParameterKey(key)
        return Parameter(key, .object, range: nil, source: source, children: T.declarations, decode: { root, c in
            if let v = try c.decodeIfPresent(T.self, forKey: k) { root[keyPath: path] = v }
        }, encode: { root, c in try c.encodeIfPresent(root[keyPath: path], forKey: k) },
           problem: { root in root[keyPath: path]?.rangeProblem.map { ("\(key).\($0.path)", $0.message) } })
    }

    /// An array of objects of a type that declares its own parameters; each
    /// element's omitted keys take the defaults of `T()` (not those of the
    /// element it replaces: the array is given whole). Absent: the default array.
    public static func list<T: DeclaredParameters>(_ key: String, _ path: WritableKeyPath<Root, [T]> & Sendable,
                                                   source: String) -> Parameter {
        let k = ParameterKey(key)
        return Parameter(key, .list, range: nil, source: source, children: T.declarations, decode: { root, c in
            if let v = try c.decodeIfPresent([T].self, forKey: k) { root[keyPath: path] = v }
        }, encode: { root, c in try c.encode(root[keyPath: path], forKey: k) },
           problem: { root in
            for (i, element) in root[keyPath: path].enumerated() {
                if let p = element.rangeProblem { return ("\(key)[\(i)].\(p.path)", p.message) }
            }
            return nil
        })
    }

    /// Any other decodable value, read as it decodes itself.
    public static func value<T: Codable & Sendable>(_ key: String, _ path: WritableKeyPath<Root, T> & Sendable,
                                                    kind: Kind = .object, source: String) -> Parameter {
        let k = ParameterKey(key)
        return Parameter(key, kind, range: nil, source: source, decode: { root, c in
            if let v = try c.decodeIfPresent(T.self, forKey: k) { root[keyPath: path] = v }
        }, encode: { root, c in try c.encode(root[keyPath: path], forKey: k) })
    }

    /// A value read and written by the caller's own closures (a parameter
    /// whose absent keys come from elsewhere, e.g. a work model's).
    public static func custom(_ key: String, kind: Kind = .object, source: String, children: [ParameterInfo] = [],
                              decode: @escaping @Sendable (inout Root, KeyedDecodingContainer<ParameterKey>, ParameterKey) throws -> Void,
                              encode: @escaping @Sendable (Root, inout KeyedEncodingContainer<ParameterKey>, ParameterKey) throws -> Void,
                              problem: @escaping @Sendable (Root) -> (path: String, message: String)? = { _ in nil })
    -> Parameter {
        let k = ParameterKey(key)
        return Parameter(key, kind, range: nil, source: source, children: children,
                         decode: { root, c in try decode(&root, c, k) }, encode: { root, c in try encode(root, &c, k) },
                         problem: problem)
    }
}

/// A configuration type whose parameters are declared once, in
/// ``parameters``; its `Codable` conformance comes from the declarations.
public protocol DeclaredParameters: Codable, Sendable {
    /// Every parameter at its default (a required one at a placeholder).
    init()
    /// The declarations, in the order of the docs and of the encoding.
    static var parameters: [Parameter<Self>] { get }
    /// A rule between parameters that their ranges cannot say (the key it
    /// is reported at, and what is wrong), checked after every key is read.
    var crossFieldProblem: (key: String, message: String)? { get }
}

extension DeclaredParameters {
    /// Reads the declared keys (absent ones keep their defaults), refusing
    /// any other key with the list of the known ones.
    public init(from decoder: any Decoder) throws {
        try self.init(from: decoder, missingKeysFrom: Self())
    }

    /// The same, with the keys it omits taken from `base` instead of `init()`.
    public init(from decoder: any Decoder, missingKeysFrom base: Self) throws {
        let c = try decoder.container(keyedBy: ParameterKey.self)
        let table = Self.parameters
        for k in c.allKeys where !table.contains(where: { $0.key == k.stringValue }) {
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath + [k],
                debugDescription: "unknown key \"\(k.stringValue)\"; expected one of \(table.map(\.key).sorted().joined(separator: ", "))"))
        }
        var value = base
        for p in table { try p.decode(&value, c) }
        if let (key, message) = value.crossFieldProblem {
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath + [ParameterKey(key)], debugDescription: message))
        }
        self = value
    }

    public var crossFieldProblem: (key: String, message: String)? { nil }

    /// Every declared key, defaults included.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: ParameterKey.self)
        for p in Self.parameters { try p.encode(self, &c) }
    }

    /// The first value out of its declared range (path relative to this
    /// value, message), or nil: for values built in code, which no decoder checked.
    public var rangeProblem: (path: String, message: String)? {
        for p in Self.parameters { if let found = p.problem(self) { return found } }
        return crossFieldProblem.map { (path: $0.key, message: $0.message) }
    }

    /// The declarations described, with the defaults of `init()`.
    public static var declarations: [ParameterInfo] {
        let defaults = Self()
        return parameters.map { $0.info(defaults: defaults) }
    }
}
