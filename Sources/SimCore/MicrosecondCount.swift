/// What an instant (``SimTime``) and a length of time (``SimDuration``)
/// share: a whole number of microseconds, ordered by it and moved by a
/// duration. They stay two types, so that an instant is never taken for a
/// duration; only the arithmetic that is the same for both is written here.
public protocol MicrosecondCount: Hashable, Comparable, Sendable {
    var microseconds: Int64 { get set }
    init(microseconds: Int64)
}

extension MicrosecondCount {
    /// The count in seconds, as a `Double` (for reports and rates).
    @inlinable
    public var seconds: Double { Double(microseconds) / 1_000_000 }

    @inlinable
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.microseconds < rhs.microseconds }

    @inlinable
    public static func + (lhs: Self, rhs: SimDuration) -> Self {
        Self(microseconds: lhs.microseconds + rhs.microseconds)
    }

    @inlinable
    public static func - (lhs: Self, rhs: SimDuration) -> Self {
        Self(microseconds: lhs.microseconds - rhs.microseconds)
    }
}
