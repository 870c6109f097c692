import Foundation
import SimCore

/// The `cost-aware-predictor`'s decision `P(stale) · launchBeforeUpdate ≥
/// bar`, answered exactly as the rule's sum answers it with less work.
/// Why: it is asked for every pending refresh at every decision point,
/// and the sum, hour by hour over a day with an `expm1` per step, made
/// the policy cost 20–30 times what `greedy` costs per event
/// (Docs/Performance.md). Two things make it cheaper without changing a
/// single answer:
///
/// - **Stop once the answer is known.** Every step adds a term ≥ 0, so
///   once P(stale) · (sum so far) reaches the bar the answer is yes; and
///   the terms still to come add at most P(neither yet) (`survive`: they
///   are shares of it), so once P(stale) · (sum so far + survive) is below
///   the bar — with a margin far above the rounding of the remaining
///   steps — the answer is no.
/// - **Reuse whole-hour terms.** A step over a whole hour with no
///   short-lived term on uses the app's time-of-week rate and the
///   content rate only, so its `expm1` is the same every time that bin
///   comes round until the app's rates change (`LaunchHourTerms`). The
///   sum adds the same terms in the same order, so its value is the rule's
///   bit for bit.
///
/// `GainTestTests` checks the answers against the plain sum on random
/// models and contexts.
extension LaunchModel {
    func launchBeforeUpdateReaches(_ bar: Double, stale: Double, app a: Int, now: SimTime, updatesPerHour u: Double,
                                   horizon: SimDuration, terms: inout LaunchHourTerms) -> Bool {
        // Both shortcuts need every term to be a number ≥ 0: a bin with no
        // day of its kind seen and no prior weight is 0/0, and an app with
        // no content exposure and no prior weight has a 0/0 content rate.
        // There, the sum as written.
        let binsAreNumbers = !timeOfWeek || (weekdaysSeen + priorDays > 0 && weekendDaysSeen + priorDays > 0)
        guard binsAreNumbers && u.isFinite else {
            return stale * launchBeforeUpdate(app: a, now: now, updatesPerHour: u, horizon: horizon) >= bar
        }
        terms.prepare(app: a, revision: a < apps ? revision[a] : 0, updatesPerHour: u)
        let extra = boosts(app: a, at: now)
        let end = now + horizon
        var t = now, survive = 1.0, p = 0.0
        while t < end && survive >= 1e-4 {
            if stale * p >= bar { return true }
            if stale * (p + survive) * (1 + 1e-9) < bar { return false }
            let hour = Int64(t.timeOfDay.microseconds / SimDuration.microsecondsPerHour)
            var next = min(end, SimTime(day: t.day, plus: .hours(hour + 1)))
            var l: Double, happens: Double
            let boosted = (extra.recency > 0 && extra.recencyUntil > t) || (extra.previous > 0 && extra.previousUntil > t)
            if !boosted && next - t == .hours(1) && a < apps {
                (l, happens) = terms.term(app: a, bin: Self.bin(t)) { baseRate(app: a, at: t) }
            } else {
                // The rule's step as written (launchBeforeUpdate).
                l = baseRate(app: a, at: t)
                if extra.recency > 0 && extra.recencyUntil > t { l += extra.recency; next = min(next, extra.recencyUntil) }
                if extra.previous > 0 && extra.previousUntil > t { l += extra.previous; next = min(next, extra.previousUntil) }
                happens = l + u > 0 ? -expm1(-(l + u) * (next - t).inHours) : 0
            }
            if l + u > 0 {
                p += survive * happens * l / (l + u)
                survive *= 1 - happens
            }
            t = next
        }
        return stale * p >= bar
    }
}

/// Per app and time-of-week bin, the launch rate and P(a launch or an
/// update within that whole hour), `-expm1(-(l + u))`, for the app's
/// current rates (its `LaunchModel.revision` and its content rate);
/// forgotten when either changes, filled as bins are asked for.
struct LaunchHourTerms: Sendable {
    var revision: [UInt32] = []
    var updatesPerHour: [Double] = []
    /// Index app · 48 + bin; NaN: not worked out for the current rates.
    var rate: [Double] = []
    var happens: [Double] = []

    mutating func prepare(app a: Int, revision r: UInt32, updatesPerHour u: Double) {
        if a >= revision.count {
            let k = a + 1 - revision.count
            revision += Array(repeating: r, count: k)
            updatesPerHour += Array(repeating: .nan, count: k)
            rate += Array(repeating: .nan, count: k * LaunchModel.bins)
            happens += Array(repeating: .nan, count: k * LaunchModel.bins)
        }
        // Bit for bit: the same rate in a different representation
        // (−0.0) would still give the same terms, but NaN would not.
        guard revision[a] != r || updatesPerHour[a].bitPattern != u.bitPattern else { return }
        revision[a] = r
        updatesPerHour[a] = u
        for bin in a * LaunchModel.bins..<(a + 1) * LaunchModel.bins { rate[bin] = .nan }
    }

    /// The term of `bin` for `app`, worked out from `baseRate` if not yet.
    @inline(__always)
    mutating func term(app a: Int, bin: Int, _ baseRate: () -> Double) -> (rate: Double, happens: Double) {
        let i = a * LaunchModel.bins + bin
        if rate[i].isNaN {
            let l = baseRate(), u = updatesPerHour[a]
            rate[i] = l
            happens[i] = l + u > 0 ? -expm1(-(l + u) * 1.0) : 0
        }
        return (rate[i], happens[i])
    }
}
