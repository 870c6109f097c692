import SimCore

/// The values a spec number may take: a closed or half-open interval, always
/// finite. Every number a spec, generator override, device or app model or
/// energy file holds is checked against one of these before anything is
/// simulated; the same ranges are printed in the docs tables (the
/// documentation test checks that they match), so a researcher reads there
/// exactly what `validate` and `run` enforce.
///
/// The bounds are not claims about real phones: they are what the simulator
/// can run without dividing by zero, looping at one instant, overflowing its
/// microsecond clock or allocating without bound, widened to anything a
/// plausible experiment might want.
public struct ValueRange: Sendable, Equatable, CustomStringConvertible {
    public let lower: Double
    public let upper: Double
    /// True when `lower` itself is excluded (`> 0` rather than `>= 0`).
    public let lowerOpen: Bool
    /// Unit printed after the bounds (`s`, `W`, `J`, ...), or empty.
    public let unit: String

    public init(_ lower: Double, _ upper: Double, lowerOpen: Bool = false, unit: String = "") {
        self.lower = lower
        self.upper = upper
        self.lowerOpen = lowerOpen
        self.unit = unit
    }

    /// `(0, 1000] W`, `[0, 1]`.
    public var description: String {
        "\(lowerOpen ? "(" : "[")\(Self.show(lower)), \(Self.show(upper))]\(unit.isEmpty ? "" : " " + unit)"
    }

    public func contains(_ v: Double) -> Bool {
        v.isFinite && (lowerOpen ? v > lower : v >= lower) && v <= upper
    }

    /// Throws a spec error at `path` when `v` is outside the range.
    public func check(_ v: Double, at path: String) throws(SpecError) {
        guard contains(v) else {
            throw SpecError(path: path, message: "\(Self.show(v)) is out of range; allowed: \(self)")
        }
    }

    /// Checks a duration, in seconds.
    public func check(_ d: SimDuration, at path: String) throws(SpecError) {
        guard contains(d.seconds) else {
            throw SpecError(path: path, message: "\(Self.show(d.seconds)) s is out of range; allowed: \(self)")
        }
    }

    static func show(_ v: Double) -> String {
        if v.isNaN { return "NaN" }
        if v.isInfinite { return v > 0 ? "infinity" : "-infinity" }
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return "\(v)"
    }

    // Ranges shared by many parameters.
    public static let probability = ValueRange(0, 1)
    public static func seconds(_ lower: Double, _ upper: Double, open: Bool = false) -> ValueRange {
        ValueRange(lower, upper, lowerOpen: open, unit: "s")
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

extension Array {
    /// Checks every rule of a table against `root`.
    func checkAll<Root>(_ root: Root, under path: String) throws(SpecError) where Element == RangeRule<Root> {
        for rule in self { try rule.check(root, under: path) }
    }
}
