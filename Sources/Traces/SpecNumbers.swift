// The one rule for numbers read from JSON (experiment specs, generator
// parameters, generator.json), so every reader refuses the same values with
// the same words: an integer field takes a whole number inside its range,
// and the message names the range; a real field takes any finite number and
// is range-checked by its reader. NaN and ±Infinity are not JSON and never
// reach a field; −0 reads as 0 (Docs/ExperimentSpec.md, "Numbers").

/// Whole numbers from JSON numbers (which arrive as `Double`).
public enum WholeNumber {
    /// `value` as an `Int` when it is whole and inside `range`; otherwise
    /// what is wrong and what is allowed ("expected a whole number in [1,
    /// 4], found 1.5"), for the caller to place at its JSON path.
    public static func read(_ value: Double, in range: ClosedRange<Int>) -> Result<Int, Problem> {
        guard value.isFinite, value == value.rounded(.towardZero) else {
            return .failure(Problem(message: "expected a whole number in \(text(range)), found \(show(value))"))
        }
        // Beyond ±2^63 no Int holds it, and every range here is inside that.
        guard value >= -9.2e18, value <= 9.2e18, range.contains(Int(value)) else {
            return .failure(Problem(message: "\(show(value)) is out of range; allowed: \(text(range))"))
        }
        return .success(Int(value))
    }

    /// What is wrong with a number, without its place.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// `[1, 4]`, `[0, 9223372036854775807]`: the notation of the spec docs' tables.
    public static func text(_ range: ClosedRange<Int>) -> String { "[\(range.lowerBound), \(range.upperBound)]" }

    /// A number as a reader wrote it: whole ones without a fraction.
    public static func show(_ v: Double) -> String {
        if v.isNaN { return "NaN" }
        if v.isInfinite { return v > 0 ? "infinity" : "-infinity" }
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return "\(v)"
    }
}

extension KeyedDecodingContainer {
    /// The integer at `key` (`fallback` when absent or null), under the one
    /// number rule: a fraction, or a whole number outside `range`, is a
    /// decoding error at `key` naming the range. Read as a `Double` first,
    /// because Foundation's own `Int` decoding loses the key and the range.
    public func int(_ key: Key, default fallback: Int, in range: ClosedRange<Int>) throws -> Int {
        guard let value = try decodeIfPresent(Double.self, forKey: key) else { return fallback }
        switch WholeNumber.read(value, in: range) {
        case let .success(i): return i
        case let .failure(p): throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: p.message)
        }
    }
}
