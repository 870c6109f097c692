import SimCore
import Traces

extension ValueRange {
    /// Throws a spec error at `path` when `v` is outside the range.
    public func check(_ v: Double, at path: String) throws(SpecError) {
        if let message = problem(v) { throw SpecError(path: path, message: message) }
    }

    /// Checks a duration, in seconds.
    public func check(_ d: SimDuration, at path: String) throws(SpecError) {
        if let message = problem(d) { throw SpecError(path: path, message: message) }
    }
}

/// One checked number: where it sits in the spec (relative path, e.g.
/// `refresh.cpuSeconds`), its range, and how to read it from the decoded value.
public struct RangeRule<Root>: Sendable {
    public let key: String
    public let range: ValueRange
    let read: @Sendable (Root) -> Double?

    public init(_ key: String, _ range: ValueRange, _ read: @escaping @Sendable (Root) -> Double?) {
        self.key = key
        self.range = range
        self.read = read
    }

    public func check(_ root: Root, under path: String) throws(SpecError) {
        guard let v = read(root) else { return }
        try range.check(v, at: "\(path).\(key)")
    }
}

extension DeclaredParameters {
    /// Checks every declared range of this value (one built in code, or
    /// decoded: decoding checked them already, so this never fails there).
    public func checkDeclaredRanges(at path: String) throws(SpecError) {
        if let p = rangeProblem { throw SpecError(path: "\(path).\(p.path)", message: p.message) }
    }
}

extension Array {
    /// Checks every rule of a table against `root`.
    func checkAll<Root>(_ root: Root, under path: String) throws(SpecError) where Element == RangeRule<Root> {
        for rule in self { try rule.check(root, under: path) }
    }
}
