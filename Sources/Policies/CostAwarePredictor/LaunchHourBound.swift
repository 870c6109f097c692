import Foundation
import SimCore

/// Per app, an upper bound on P(the next launch comes before the next
/// update) (`LaunchModel.launchBeforeUpdate`) that holds at every time
/// within one hour while no short-lived term is on, kept for the app's
/// current rates. Why: most gain tests come out "no", and they come
/// several times an hour for the same app; with the bound, P(stale) (or
/// its upper bracket) times the bound below the bar answers "no" for a
/// few comparisons, without summing (`CostAwarePredictorPolicy.gainReaches`).
///
/// Why it is a bound: with no short-lived term on, the rule's sum from
/// `now` in hour `[T, T + 1 h)` is exactly P(the first of two competing
/// Poisson processes, launches and updates, within the horizon is a
/// launch) for hourly constant rates (up to rounding). Its first step,
/// to `T + 1 h`, has an event with probability h ≤ H₀ (the whole hour's)
/// and then a launch share s₀; after it the sum is at most X, the same
/// sum from `T + 1 h` over whole hours to `T + 1 h + horizon` (a longer
/// window, so never less, and the rule's 1e-4 stop only drops terms).
/// So the sum is at most h · s₀ + (1 − h) · X ≤ max over h in [0, H₀],
/// which is X where s₀ ≤ X and H₀ · s₀ + (1 − H₀) · X otherwise. Both
/// sums round by about 1e-14 relative over a day, far inside the 1e-9
/// margin the caller keeps below the bar.
struct LaunchHourBounds: Sendable {
    /// Per app: the hour (since the trace's start) the bound is for
    /// (`Int64.min`: none), the rates it is for (the launch model's
    /// revision and the content rate, bit for bit) and the bound.
    var hour: [Int64] = []
    var revision: [UInt32] = []
    var updatesPerHour: [UInt64] = []
    var bound: [Double] = []
    /// The horizon every kept bound is for.
    var horizon = SimDuration.zero

    /// The kept bound of `app` for the hour of `now`, if it is for these rates.
    @inline(__always)
    func kept(app a: Int, now: SimTime, revision r: UInt32, updatesPerHour u: Double, horizon: SimDuration) -> Double? {
        guard a < hour.count, hour[a] == now.microseconds / SimDuration.microsecondsPerHour, revision[a] == r,
              updatesPerHour[a] == u.bitPattern, horizon == self.horizon else { return nil }
        return bound[a]
    }

    mutating func keep(_ value: Double, app a: Int, now: SimTime, revision r: UInt32, updatesPerHour u: Double,
                       horizon: SimDuration) {
        if horizon != self.horizon {
            self.horizon = horizon
            for i in hour.indices { hour[i] = .min }
        }
        if a >= hour.count {
            let k = a + 1 - hour.count
            hour += Array(repeating: .min, count: k)
            revision += Array(repeating: 0, count: k)
            updatesPerHour += Array(repeating: 0, count: k)
            bound += Array(repeating: 0, count: k)
        }
        hour[a] = now.microseconds / SimDuration.microsecondsPerHour
        revision[a] = r
        updatesPerHour[a] = u.bitPattern
        bound[a] = value
    }
}

extension LaunchModel {
    /// The bound of `LaunchHourBounds` for `app` over the hour of `now`
    /// (whole-hour terms read from, and kept in, `terms`). Only for an
    /// app this model has seen, with bins that are numbers and a finite
    /// content rate: the caller asks nothing else.
    func hourBound(app a: Int, now: SimTime, updatesPerHour u: Double, horizon: SimDuration,
                   terms: inout LaunchHourTerms) -> Double {
        terms.prepare(app: a, revision: revision[a], updatesPerHour: u)
        let hour = SimDuration.microsecondsPerHour
        let start = SimTime(microseconds: now.microseconds / hour * hour)
        func step(_ j: Int64) -> (happens: Double, share: Double) {
            let t = start + .hours(j)
            let (l, happens) = terms.term(app: a, bin: Self.bin(t)) { baseRate(app: a, at: t) }
            return l + u > 0 ? (happens, l / (l + u)) : (0, 0)
        }
        // X: from the next hour on, whole hours covering the horizon.
        let whole = (horizon.microseconds + hour - 1) / hour
        var x = 0.0, survive = 1.0
        var j: Int64 = 1
        while j <= whole {
            let (h, s) = step(j)
            x += survive * h * s
            survive *= 1 - h
            j += 1
        }
        let (h0, s0) = step(0)
        return s0 <= x ? x : h0 * s0 + (1 - h0) * x
    }
}
