/// A length of simulated time in whole microseconds (may be negative).
///
/// Parses and prints the compact form experiment files use: an integer or
/// decimal number followed by one unit, `us`, `ms`, `s`, `m`, `h` or `d`
/// (`250ms`, `30s`, `1.5h`, `15m`, `1d`).
@frozen
public struct SimDuration: MicrosecondCount {
    public var microseconds: Int64

    @inlinable
    public init(microseconds: Int64) { self.microseconds = microseconds }

    public static let microsecondsPerSecond: Int64 = 1_000_000
    public static let microsecondsPerMinute: Int64 = 60_000_000
    public static let microsecondsPerHour: Int64 = 3_600_000_000
    public static let microsecondsPerDay: Int64 = 86_400_000_000

    public static let zero = SimDuration(microseconds: 0)

    /// Rounds to the nearest microsecond. Disfavoured so that an integer
    /// literal, `.seconds(30)`, picks the exact `Int64` overload instead of
    /// being ambiguous.
    @inlinable @_disfavoredOverload
    public static func seconds(_ s: Double) -> SimDuration {
        SimDuration(microseconds: Int64((s * 1_000_000).rounded()))
    }

    @inlinable public static func milliseconds(_ v: Int64) -> SimDuration { SimDuration(microseconds: v * 1_000) }
    @inlinable public static func seconds(_ v: Int64) -> SimDuration { SimDuration(microseconds: v * microsecondsPerSecond) }
    @inlinable public static func minutes(_ v: Int64) -> SimDuration { SimDuration(microseconds: v * microsecondsPerMinute) }
    @inlinable public static func hours(_ v: Int64) -> SimDuration { SimDuration(microseconds: v * microsecondsPerHour) }
    @inlinable public static func days(_ v: Int64) -> SimDuration { SimDuration(microseconds: v * microsecondsPerDay) }

    // `seconds`, `<`, `+` and `-`: ``MicrosecondCount``.

    @inlinable
    public static func * (lhs: SimDuration, rhs: Int64) -> SimDuration {
        SimDuration(microseconds: lhs.microseconds * rhs)
    }
    /// Scales and rounds to the nearest microsecond. Disfavoured so that
    /// `d * 3` picks the exact `Int64` overload instead of being ambiguous.
    @inlinable @_disfavoredOverload
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
    /// not allowed; a decimal point needs digits on both sides; the value
    /// must be a whole number of microseconds. Decimals are read exactly
    /// (`1.1ms` is 1100 µs), not through floating point.
    public init(parsing text: String) throws(DurationParseError) {
        guard !text.isEmpty else { throw DurationParseError(input: text, reason: "empty string") }
        // Longest suffix first so "ms" is not read as "m" + "s" garbage.
        let unit = Self.units.sorted { $0.suffix.count > $1.suffix.count }
            .first { text.hasSuffix($0.suffix) }
        guard let unit else {
            throw DurationParseError(input: text, reason: "missing or unknown unit")
        }
        let number = text.dropLast(unit.suffix.count)
        let negative = number.first == "-"
        let unsigned = negative ? number.dropFirst() : number
        let parts = unsigned.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        func isDigits(_ s: Substring) -> Bool { !s.isEmpty && s.allSatisfy { $0.isASCII && $0.isNumber } }
        guard let whole = parts.first, isDigits(whole), parts.count == 1 || isDigits(parts[1]) else {
            throw DurationParseError(input: text, reason: "\"\(number)\" is not a number")
        }
        let outOfRange = DurationParseError(input: text, reason: "out of range")
        guard let integer = Int64(whole) else { throw outOfRange }
        let (scaled, overflow) = integer.multipliedReportingOverflow(by: unit.microseconds)
        guard !overflow else { throw outOfRange }
        var fractionMicroseconds: Int64 = 0
        if parts.count == 2 {
            // fraction × unit / 10^digits, exactly, after dropping trailing zeros.
            var digits = parts[1]
            while digits.count > 1 && digits.last == "0" { digits = digits.dropLast() }
            let notWhole = DurationParseError(input: text, reason: "not a whole number of microseconds")
            guard digits.count <= 18, let fraction = UInt64(digits) else { throw notWhole }
            var power: UInt64 = 1
            for _ in 0..<digits.count { power *= 10 }
            let product = fraction.multipliedFullWidth(by: UInt64(unit.microseconds))
            let (quotient, remainder) = power.dividingFullWidth(product)
            guard remainder == 0 else { throw notWhole }
            fractionMicroseconds = Int64(quotient)  // < unit.microseconds, as fraction < power
        }
        let (total, overflow2) = scaled.addingReportingOverflow(fractionMicroseconds)
        guard !overflow2 else { throw outOfRange }
        self.init(microseconds: negative ? -total : total)
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
