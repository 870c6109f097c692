import Foundation

/// A Foundation `DecodingError` in a researcher's words: the JSON path of
/// the value (`.power.batteryCapacityWh`, `[2].name`, relative to the
/// document decoded) and what was expected there. Shared by the spec
/// reader and the `generator.json` reader, so neither shows
/// `DecodingError.dataCorrupted(...)`.
public enum DecodingErrorText {
    /// The path under the document (empty for the document itself) and the message.
    public static func describe(_ error: DecodingError) -> (path: String, message: String) {
        func path(_ keys: [CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error {
        case let .typeMismatch(type, c), let .valueNotFound(type, c):
            return (path(c.codingPath), "expected \(kind(of: type)), found \(found(in: c.debugDescription))")
        case let .keyNotFound(key, c):
            return (path(c.codingPath + [key]), "required key \"\(key.stringValue)\" is missing")
        case let .dataCorrupted(c):
            // Foundation's own words for a syntax error or a number no
            // field type holds; the underlying error says where, if anything.
            var message = c.debugDescription
            if let underlying = c.underlyingError as NSError?,
               let detail = underlying.userInfo[NSDebugDescriptionErrorKey] as? String, !detail.isEmpty {
                message += " (\(detail))"
            }
            return (path(c.codingPath), message)
        @unknown default:
            return ("", "cannot decode this value")
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
}
