import Foundation
import Traces

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

    static func describe(_ error: DecodingError, under root: String) -> SpecError {
        let (path, message) = DecodingErrorText.describe(error)
        return SpecError(path: root + path, message: message)
    }
}
