import SimCore

/// A daily allowance "distributed throughout the day" (WWDC 2020,
/// "Background execution demystified", factor "system budgets"): by time of
/// day f (fraction of the day elapsed, 0…1) the day's spending may reach
/// `perDay · min(1, f + burst)`. So a day's budget cannot be spent in the
/// morning, and `burst` lets a little be spent early. It starts again at
/// midnight (nothing carries over; assumption: Apple does not publish how
/// the budget is refilled). Used by the energy and the cellular-data budget.
public struct DayAllowance: Sendable, Hashable {
    /// The day's budget, in the currency of the budget (J, runs).
    public var perDay: Double
    /// Fraction of the day's budget available at midnight, 0…1.
    public var burst: Double

    public init(perDay: Double, burst: Double) {
        self.perDay = perDay
        self.burst = burst
    }

    /// What may have been spent today by `t`.
    public func allowed(at t: SimTime) -> Double {
        let f = Double(t.timeOfDay.microseconds) / Double(SimDuration.microsecondsPerDay)
        return perDay * min(1, f + burst)
    }

    /// The first time at or after `t` (same day) when `amount` may have
    /// been spent; nil if not before midnight.
    public func time(whenAllowed amount: Double, after t: SimTime) -> SimTime? {
        // More than the whole day's budget is never allowed.
        guard perDay > 0, amount <= perDay else { return nil }
        let f = amount / perDay - burst
        if f <= 0 { return t }
        guard f < 1 else { return nil }
        let at = SimTime(day: t.day, plus: SimDuration(microseconds: Int64((f * Double(SimDuration.microsecondsPerDay)).rounded(.up))))
        return max(at, t)
    }
}
