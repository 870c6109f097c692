import Foundation
import SimCore

/// Per app, bounds on P(the next launch comes before the next update)
/// (`LaunchModel.launchBeforeUpdate`, the rule's sum as written) that hold
/// at every time within one hour while no short-lived term is on, kept
/// for the app's current rates. Why: a gain test comes several times an
/// hour for the same app, and most answers are far from the bar; with
/// the bounds, P(stale) times them answers those with a comparison or
/// two, without summing (`CostAwarePredictorPolicy.gainReaches`).
///
/// Why they are bounds: with no short-lived term on, the rule's sum from
/// `now` in hour `[T, T + 1 h)` is P(the first of two competing Poisson
/// processes, launches and updates, within the horizon is a launch) for
/// hourly constant rates, less at most 1e-4 where it stops at
/// P(neither yet) < 1e-4. Its first step, to `T + 1 h`, has an event
/// with probability h in [0, H₀] (H₀: the whole hour's) and a launch
/// share s₀; after it comes X(now), the same sum from `T + 1 h` to
/// `now + horizon`. X(now) is at most `above`'s X, over whole hours to
/// `T + 1 h + horizon` (a longer window; the hours past where its
/// P(neither yet) is negligible bounded by the largest share), and at
/// least `below`'s, over whole hours to `T + horizon`. The sum,
/// h · s₀ + (1 − h) · X, is linear in h, so its extremes over [0, H₀]
/// are at the ends. Both bounds round by about 1e-14 relative, far inside
/// the 1e-9 margin the caller keeps from the bar.
struct LaunchHourBounds: Sendable {
    /// Per app: the hour (since the trace's start) the bound is for
    /// (`Int64.min`: none), the rates it is for (the launch model's
    /// revision and the content rate, bit for bit) and the bounds.
    var hour: [Int64] = []
    var revision: [UInt32] = []
    var updatesPerHour: [UInt64] = []
    var above: [Double] = []
    var below: [Double] = []
    /// The horizon every kept bound is for.
    var horizon = SimDuration.zero

    /// The kept bounds of `app` for the hour of `now`, if they are for these rates.
    @inline(__always)
    func kept(app a: Int, now: SimTime, revision r: UInt32, updatesPerHour u: Double,
              horizon: SimDuration) -> (above: Double, below: Double)? {
        guard a < hour.count, hour[a] == now.microseconds / SimDuration.microsecondsPerHour, revision[a] == r,
              updatesPerHour[a] == u.bitPattern, horizon == self.horizon else { return nil }
        return (above[a], below[a])
    }

    mutating func keep(_ value: (above: Double, below: Double), app a: Int, now: SimTime, revision r: UInt32, updatesPerHour u: Double,
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
            above += Array(repeating: 0, count: k)
            below += Array(repeating: 0, count: k)
        }
        hour[a] = now.microseconds / SimDuration.microsecondsPerHour
        revision[a] = r
        updatesPerHour[a] = u.bitPattern
        above[a] = value.above
        below[a] = value.below
    }
}

extension LaunchModel {
    /// The bounds of `LaunchHourBounds` for `app` over the hour of `now`
    /// (whole-hour terms read from, and kept in, `terms`): `above` at
    /// least, `below` at most the rule's sum at any time of the hour with
    /// no short-lived term on. Only for an app this model has seen, with
    /// bins that are numbers and a finite content rate: the caller asks
    /// nothing else.
    func hourBounds(app a: Int, now: SimTime, updatesPerHour u: Double, horizon: SimDuration,
                    terms: inout LaunchHourTerms) -> (above: Double, below: Double) {
        terms.prepare(app: a, revision: revision[a], updatesPerHour: u)
        let hour = SimDuration.microsecondsPerHour
        let most = maxBaseRate(app: a)
        let share = most + u > 0 ? most / (most + u) : 0
        var day = now.day, hourOfDay = Int(now.timeOfDay.microseconds / hour), weekend = now.isWeekend
        /// The whole-hour step at the current bin: P(an event), launch share.
        func step() -> (happens: Double, share: Double) {
            let bin = (weekend ? 24 : 0) + hourOfDay
            let (l, happens) = terms.term(app: a, bin: bin) { baseRate(app: a, bin: bin) }
            return l + u > 0 ? (happens, l / (l + u)) : (0, 0)
        }
        let (h0, s0) = step()
        // Whole hours from the next on: `longest` of them for above, `shortest` for below.
        let longest = (horizon.microseconds + hour - 1) / hour, shortest = horizon.microseconds / hour - 1
        var x = 0.0, low = 0.0, survive = 1.0
        var j: Int64 = 1
        while j <= longest {
            // What is left adds at most survive · share: stop where that is negligible.
            if survive * share <= 1e-3 * x { x += survive * share; break }
            hourOfDay += 1
            if hourOfDay == 24 { hourOfDay = 0; day += 1; weekend = SimTime(day: day).isWeekend }
            let (h, s) = step()
            x += survive * h * s
            if j <= shortest { low = x }
            survive *= 1 - h
            j += 1
        }
        let above = max(x, h0 * s0 + (1 - h0) * x)
        let below = min(low, h0 * s0 + (1 - h0) * low) - 1e-4
        return (above, below)
    }
}
