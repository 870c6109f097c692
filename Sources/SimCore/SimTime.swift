/// An instant of simulated time: whole microseconds since the start of the
/// trace (midnight of day 0, a Monday).
///
/// A plain `Int64` inside a struct, so the type checker keeps instants and
/// durations apart at no run-time cost. 2^63 µs is about 292 000 years.
@frozen
public struct SimTime: MicrosecondCount {
    /// Microseconds since the start of the trace.
    public var microseconds: Int64

    @inlinable
    public init(microseconds: Int64) { self.microseconds = microseconds }

    /// The start of the trace.
    public static let zero = SimTime(microseconds: 0)

    /// A time later than any event a simulation schedules.
    public static let distantFuture = SimTime(microseconds: .max)

    /// The instant `day` days plus `offset` after the start of the trace.
    @inlinable
    public init(day: Int, plus offset: SimDuration = .zero) {
        self.microseconds = Int64(day) * SimDuration.microsecondsPerDay + offset.microseconds
    }

    /// Zero-based index of the day this instant falls in.
    @inlinable
    public var day: Int {
        Int(microseconds.floorDiv(SimDuration.microsecondsPerDay))
    }

    /// Time since the midnight that starts ``day``, in [0, 1 day).
    @inlinable
    public var timeOfDay: SimDuration {
        SimDuration(microseconds: microseconds.floorMod(SimDuration.microsecondsPerDay))
    }

    /// Day of the week: 0 = Monday ... 6 = Sunday (day 0 of a trace is a Monday).
    @inlinable
    public var weekday: Int { day.floorMod(7) }

    /// Saturday or Sunday.
    @inlinable
    public var isWeekend: Bool { weekday >= 5 }

    // `seconds` (since the start of the trace), `<`, and `+` and `-` a
    // duration: ``MicrosecondCount``.

    /// The duration from `rhs` to `lhs` (negative when `lhs` is earlier).
    @inlinable
    public static func - (lhs: SimTime, rhs: SimTime) -> SimDuration {
        SimDuration(microseconds: lhs.microseconds - rhs.microseconds)
    }

    @inlinable
    public static func += (lhs: inout SimTime, rhs: SimDuration) { lhs.microseconds += rhs.microseconds }
}

extension SimTime: CustomStringConvertible {
    /// `d3+08:15:00.250000`: day index, then the time of day.
    public var description: String {
        let tod = timeOfDay.microseconds
        let h = tod / 3_600_000_000, m = tod / 60_000_000 % 60, s = tod / 1_000_000 % 60
        let us = tod % 1_000_000
        func pad(_ v: Int64, _ w: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, w - s.count)) + s
        }
        let frac = us == 0 ? "" : "." + pad(us, 6)
        return "d\(day)+\(pad(h, 2)):\(pad(m, 2)):\(pad(s, 2))\(frac)"
    }
}

extension Int64 {
    /// Division rounding towards negative infinity.
    @inlinable
    func floorDiv(_ d: Int64) -> Int64 {
        let q = self / d
        return (self % d != 0 && (self < 0) != (d < 0)) ? q - 1 : q
    }

    /// Remainder with the sign of the divisor.
    @inlinable
    func floorMod(_ d: Int64) -> Int64 {
        let r = self % d
        return (r != 0 && (r < 0) != (d < 0)) ? r + d : r
    }
}

extension Int {
    @inlinable
    func floorMod(_ d: Int) -> Int {
        let r = self % d
        return (r != 0 && (r < 0) != (d < 0)) ? r + d : r
    }
}
