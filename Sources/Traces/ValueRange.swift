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
    /// The integers `range` holds, as a range of numbers (for docs and checks).
    public init(integers range: ClosedRange<Int>, unit: String = "") {
        self.init(Double(range.lowerBound), Double(range.upperBound), unit: unit)
    }


    public let lower: Double
    public let upper: Double
    /// True when `lower` itself is excluded (`> 0` rather than `>= 0`).
    public let lowerOpen: Bool
    /// True when `upper` itself is excluded (an hour of the day: `< 24`).
    public let upperOpen: Bool
    /// Unit printed after the bounds (`s`, `W`, `J`, ...), or empty.
    public let unit: String

    public init(_ lower: Double, _ upper: Double, lowerOpen: Bool = false, upperOpen: Bool = false, unit: String = "") {
        self.lower = lower
        self.upper = upper
        self.lowerOpen = lowerOpen
        self.upperOpen = upperOpen
        self.unit = unit
    }

    /// `(0, 1000] W`, `[0, 1]`, `[0, 24) h`.
    public var description: String {
        "\(lowerOpen ? "(" : "[")\(Self.show(lower)), \(Self.show(upper))\(upperOpen ? ")" : "]")\(unit.isEmpty ? "" : " " + unit)"
    }

    public func contains(_ v: Double) -> Bool {
        v.isFinite && (lowerOpen ? v > lower : v >= lower) && (upperOpen ? v < upper : v <= upper)
    }

    /// What is wrong with `v` ("1e+308 is out of range; allowed: [0, 96]
    /// /day"), or nil when it is inside.
    public func problem(_ v: Double) -> String? {
        contains(v) ? nil : "\(Self.show(v)) is out of range; allowed: \(self)"
    }

    /// The same for a duration, in seconds.
    public func problem(_ d: SimDuration) -> String? {
        contains(d.seconds) ? nil : "\(Self.show(d.seconds)) s is out of range; allowed: \(self)"
    }

    /// A number as the messages print it (``WholeNumber/show(_:)``).
    public static func show(_ v: Double) -> String { WholeNumber.show(v) }

    // Ranges shared by many parameters.
    public static let probability = ValueRange(0, 1)
    /// A battery's capacity: the generator's, a trace set's users' and the device override's.
    public static let batteryCapacity = ValueRange(0.1, 1_000, unit: "Wh")
    public static func seconds(_ lower: Double, _ upper: Double, open: Bool = false) -> ValueRange {
        ValueRange(lower, upper, lowerOpen: open, unit: "s")
    }
}

