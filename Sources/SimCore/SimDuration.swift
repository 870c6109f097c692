/// A length of simulated time in whole microseconds (may be negative).
///
/// Parses and prints the compact form experiment files use: an integer or
/// decimal number followed by one unit, `us`, `ms`, `s`, `m`, `h` or `d`
/// (`250ms`, `30s`, `1.5h`, `15m`, `1d`).
@frozen
public struct SimDuration: Hashable, Comparable, Sendable {
    public var microseconds: Int64

    @inlinable
    public init(microseconds: Int64) { self.microseconds = microseconds }

    public static let microsecondsPerSecond: Int64 = 1_000_000
    public static let microsecondsPerMinute: Int64 = 60_000_000
    public static let microsecondsPerHour: Int64 = 3_600_000_000
    public static let microsecondsPerDay: Int64 = 86_400_000_000

    public static let zero = SimDuration(microseconds: 0)

    /// Rounds to the nearest microsecond.
    @inlinable
    public static func seconds(_ s: Double) -> SimDuration {
        SimDuration(microseconds: Int64((s * 1_000_000).rounded()))
    }

    @inlinable public static func milliseconds(_ v: Int64) -> SimDuration { SimDuration(microseconds: v * 1_000) }
    @inlinable public static func seconds(_ v: Int64) -> SimDuration { SimDuration(microseconds: v * microsecondsPerSecond) }
    @inlinable public static func minutes(_ v: Int64) -> SimDuration { SimDuration(microseconds: v * microsecondsPerMinute) }
    @inlinable public static func hours(_ v: Int64) -> SimDuration { SimDuration(microseconds: v * microsecondsPerHour) }
    @inlinable public static func days(_ v: Int64) -> SimDuration { SimDuration(microseconds: v * microsecondsPerDay) }

    /// The length in seconds, as a `Double`.
    @inlinable
    public var seconds: Double { Double(microseconds) / 1_000_000 }

    @inlinable
    public static func < (lhs: SimDuration, rhs: SimDuration) -> Bool { lhs.microseconds < rhs.microseconds }
    @inlinable
    public static func + (lhs: SimDuration, rhs: SimDuration) -> SimDuration {
        SimDuration(microseconds: lhs.microseconds + rhs.microseconds)
    }
    @inlinable
    public static func - (lhs: SimDuration, rhs: SimDuration) -> SimDuration {
        SimDuration(microseconds: lhs.microseconds - rhs.microseconds)
    }
    @inlinable
    public static func * (lhs: SimDuration, rhs: Int64) -> SimDuration {
        SimDuration(microseconds: lhs.microseconds * rhs)
    }
    /// Scales and rounds to the nearest microsecond.
    @inlinable
    public static func * (lhs: SimDuration, rhs: Double) -> SimDuration {
        SimDuration(microseconds: Int64((Double(lhs.microseconds) * rhs).rounded()))
    }
    @inlinable
    public static prefix func - (d: SimDuration) -> SimDuration { SimDuration(microseconds: -d.microseconds) }
}

/// Why a duration string was rejected; the message says what is accepted.
public struct DurationParseError: Error, Equatable, CustomStringConvertible {
    public let input: String
    public let reason: String
    public var description: String {
        "invalid duration \"\(input)\": \(reason); expected a number and a unit, e.g. 250ms, 30s, 15m, 2h, 1d (units: us, ms, s, m, h, d)"
    }
}

extension SimDuration {
    private static let units: [(suffix: String, microseconds: Int64)] = [
        ("us", 1), ("ms", 1_000), ("s", microsecondsPerSecond),
        ("m", microsecondsPerMinute), ("h", microsecondsPerHour), ("d", microsecondsPerDay),
    ]

    /// Parses `250ms`, `30s`, `15m`, `1.5h`, `1d`, `-5s`. Surrounding spaces are
    /// not allowed; the value must be a whole number of microseconds.
    public init(parsing text: String) throws(DurationParseError) {
        guard !text.isEmpty else { throw DurationParseError(input: text, reason: "empty string") }
        // Longest suffix first so "ms" is not read as "m" + "s" garbage.
        let unit = Self.units.sorted { $0.suffix.count > $1.suffix.count }
            .first { text.hasSuffix($0.suffix) }
        guard let unit else {
            throw DurationParseError(input: text, reason: "missing or unknown unit")
        }
        let number = String(text.dropLast(unit.suffix.count))
        guard !number.isEmpty,
              number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-") }),
              let value = Double(number), value.isFinite
        else {
            throw DurationParseError(input: text, reason: "\"\(number)\" is not a number")
        }
        let us = value * Double(unit.microseconds)
        guard abs(us) < 9.2e18 else { throw DurationParseError(input: text, reason: "out of range") }
        guard us == us.rounded() else {
            throw DurationParseError(input: text, reason: "not a whole number of microseconds")
        }
        self.init(microseconds: Int64(us))
    }
}

extension SimDuration: CustomStringConvertible {
    /// The largest unit that divides the duration exactly: `15m`, `90s`, `1d`, `250ms`, `7us`.
    public var description: String {
        if microseconds == 0 { return "0s" }
        for (suffix, size) in Self.units.reversed() where microseconds % size == 0 {
            return "\(microseconds / size)\(suffix)"
        }
        return "\(microseconds)us"
    }
}
