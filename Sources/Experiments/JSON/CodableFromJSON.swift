import Foundation

/// Decodes a `Codable` parameter struct from a spec node, strictly: type
/// errors name their JSON path, and a key the type does not know is an
/// error (a typo would otherwise silently keep the default).
///
/// Unknown keys are found without any per-type list: the decoded value is
/// encoded again, and a key present in the input but absent from that
/// encoding (at the same path) is one the type ignored. Keys whose value is
/// `null` are allowed (they decode as "absent").
public enum CodableFromJSON {
    public static func decode<T: Codable>(_ type: T.Type, from node: JSONNode) throws(SpecError) -> T {
        let data = Data(node.value.serialized().utf8)
        let value: T
        do {
            value = try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw describe(error, under: node.path)
        } catch {
            throw node.error("\(error)")
        }
        let echoed: JSONValue
        do {
            let encoded = try JSONEncoder().encode(value)
            echoed = try JSONParser.parse(String(decoding: encoded, as: UTF8.self))
        } catch {
            return value  // Cannot re-encode: skip the unknown-key check rather than fail a valid spec.
        }
        try checkKeys(node.value, against: echoed, path: node.path)
        return value
    }

    private static func checkKeys(_ input: JSONValue, against echoed: JSONValue, path: String) throws(SpecError) {
        switch (input, echoed) {
        case let (.object(pairs), .object(known)):
            for (k, v) in pairs {
                if let e = known.first(where: { $0.key == k })?.value {
                    try checkKeys(v, against: e, path: "\(path).\(k)")
                } else if v != .null {
                    throw SpecError(path: "\(path).\(k)", message: "unknown key \"\(k)\"; known keys here: \(known.map(\.key).sorted().joined(separator: ", "))")
                }
            }
        case let (.array(items), .array(known)) where items.count == known.count:
            for (i, (v, e)) in zip(items, known).enumerated() { try checkKeys(v, against: e, path: "\(path)[\(i)]") }
        default:
            break
        }
    }

    /// The JSON kind a Swift type decodes from, in the words of the spec docs.
    static func kind(of type: Any.Type) -> String {
        let name = String(describing: type)
        if name.hasPrefix("Dictionary") { return "an object" }
        if name.hasPrefix("Array") { return "an array" }
        if name == "String" { return "a string (durations are strings such as \"30s\")" }
        if name == "Bool" { return "true or false" }
        if ["Double", "Float", "Int", "Int64", "UInt64", "Int32"].contains(name) { return "a number" }
        return "a value of another type"
    }

    /// What Foundation says it found ("... but found number instead."), as "a number".
    static func found(in debugDescription: String) -> String {
        guard let r = debugDescription.range(of: "but found ") else { return "a value of another type" }
        let word = debugDescription[r.upperBound...].split(separator: " ").first.map(String.init) ?? ""
        switch word {
        case "number": return "a number"
        case "a", "string": return "a string"
        case "bool", "boolean": return "true or false"
        case "null": return "null"
        case "array", "an": return debugDescription.contains("array") ? "an array" : "an object"
        case "dictionary", "object": return "an object"
        default: return word.isEmpty ? "a value of another type" : word
        }
    }

    static func describe(_ error: DecodingError, under root: String) -> SpecError {
        func path(_ keys: [CodingKey]) -> String {
            root + keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error {
        case let .typeMismatch(type, c), let .valueNotFound(type, c):
            return SpecError(path: path(c.codingPath), message: "expected \(kind(of: type)), found \(found(in: c.debugDescription))")
        case let .keyNotFound(key, c):
            return SpecError(path: path(c.codingPath + [key]), message: "required key \"\(key.stringValue)\" is missing")
        case let .dataCorrupted(c):
            return SpecError(path: path(c.codingPath), message: c.debugDescription)
        @unknown default:
            return SpecError(path: root, message: "cannot decode this value")
        }
    }
}
