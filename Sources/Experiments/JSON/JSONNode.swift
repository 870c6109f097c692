import SimCore
import Traces

/// A problem in an experiment file, located by a JSON path such as
/// `$.policies[2].params.interval`, with what was expected.
public struct SpecError: Error, Equatable, CustomStringConvertible {
    /// The file the spec came from, when there is one.
    public var file: String?
    /// JSON path of the offending value (`$` is the document root).
    public var path: String
    /// What is wrong and what would be accepted.
    public var message: String

    public init(file: String? = nil, path: String, message: String) {
        self.file = file
        self.path = path
        self.message = message
    }

    public var description: String { "\(file.map { "\($0): " } ?? "")\(path): \(message)" }
}

/// A JSON value together with its path, with typed accessors whose errors
/// name that path. Spec decoding reads through nodes so every error says
/// where it is.
public struct JSONNode: Sendable {
    public let value: JSONValue
    public let path: String

    public init(_ value: JSONValue, path: String = "$") {
        self.value = value
        self.path = path
    }

    public func error(_ message: String) -> SpecError { SpecError(path: path, message: message) }

    private func mismatch(_ expected: String) -> SpecError {
        error("expected \(expected), found \(value.typeName)")
    }

    // MARK: Objects

    /// The members of an object, checked against the keys the caller knows.
    /// An unknown key is an error naming the known ones (typos are the usual cause).
    public func object(knownKeys: [String]) throws(SpecError) -> [String: JSONNode] {
        guard case let .object(pairs) = value else { throw mismatch("an object") }
        var out: [String: JSONNode] = [:]
        for (k, v) in pairs {
            guard knownKeys.contains(k) else {
                throw SpecError(path: "\(path).\(k)",
                                message: "unknown key \"\(k)\"; known keys here: \(knownKeys.joined(separator: ", "))")
            }
            out[k] = JSONNode(v, path: "\(path).\(k)")
        }
        return out
    }

    /// The member `key` of an object (nil when absent), no key check.
    public subscript(key: String) -> JSONNode? {
        value[key].map { JSONNode($0, path: "\(path).\(key)") }
    }

    // MARK: Scalars

    public func string() throws(SpecError) -> String {
        guard case let .string(s) = value else { throw mismatch("a string") }
        return s
    }

    public func bool() throws(SpecError) -> Bool {
        guard case let .bool(b) = value else { throw mismatch("true or false") }
        return b
    }

    public func double() throws(SpecError) -> Double {
        guard case let .number(d) = value else { throw mismatch("a number") }
        return d
    }

    /// A whole number in `range`, under the one number rule (``WholeNumber``).
    public func int(in range: ClosedRange<Int>) throws(SpecError) -> Int {
        guard case let .number(d) = value else { throw mismatch("a whole number in \(WholeNumber.text(range))") }
        switch WholeNumber.read(d, in: range) {
        case let .success(i): return i
        case let .failure(p): throw error(p.message)
        }
    }

    /// A duration written as a string (`"15m"`, `"30s"`).
    public func duration(allowNegative: Bool = false) throws(SpecError) -> SimDuration {
        guard case let .string(s) = value else { throw mismatch("a duration string such as \"15m\"") }
        let d: SimDuration
        do { d = try SimDuration(parsing: s) } catch { throw self.error(error.description) }
        if !allowNegative && d.microseconds < 0 { throw self.error("duration \(s) is negative; expected >= 0") }
        return d
    }

    public func array() throws(SpecError) -> [JSONNode] {
        guard case let .array(items) = value else { throw mismatch("an array") }
        return items.enumerated().map { JSONNode($1, path: "\(path)[\($0)]") }
    }
}
