import Foundation
import SimCore

/// The `cost-aware-predictor`'s decision `P(stale) · launchBeforeUpdate ≥
/// bar`, answered exactly as the rule's sum answers it with less work.
/// Why: it is asked for every pending refresh at every decision point,
/// and the sum, hour by hour over a day with an `expm1` per step, was
/// most of the policy's cost (Docs/Performance.md). Three things make it
/// cheaper without changing a single answer:
///
/// - **Stop once the answer is known.** Every step adds a term ≥ 0, so
///   once P(stale) · (sum so far) reaches the bar the answer is yes; and
///   the terms still to come add at most P(neither yet) (`survive`: they
///   are shares of it) times the largest share l / (l + u) a step can
///   have (the app's largest time-of-week rate, `maxBaseRate`, once no
///   short-lived term is on), so once P(stale) · (sum so far + that) is
///   below the bar — with a margin far above the rounding of the
///   remaining steps — the answer is no.
/// - **Answer no before summing** where P(stale), or (with no short-lived
///   term on) P(stale) times that largest share, is already below the bar.
/// - **Reuse whole-hour terms.** A step over a whole hour with no
///   short-lived term on uses the app's time-of-week rate and the
///   content rate only, so its `expm1` is the same every time that bin
///   comes round until the app's rates change (`LaunchHourTerms`). The
///   sum adds the same terms in the same order, so its value is the rule's
///   bit for bit.
/// - **Keep whole-hour sums.** From an hour boundary on, the sum's
///   prefixes are kept per app for its current rates (`LaunchWindows`),
///   extended only as far as an answer needs, so the tests of the same
///   app within the hour read them. They round differently from the
///   running sum, so they answer only where the gain is more than a
///   relative 1e-9 from the bar; closer calls are summed as written.
///
/// `GainTestDifferentialTests` checks the answers against the plain sum
/// on random models and contexts.
extension LaunchModel {
    func launchBeforeUpdateReaches(_ bar: Double, stale: Double, app a: Int, now: SimTime, updatesPerHour u: Double,
                                   horizon: SimDuration, terms: inout LaunchHourTerms) -> Bool {
        // The shortcuts need every term to be a number ≥ 0: a bin with no
        // day of its kind seen and no prior weight is 0/0, and an app with
        // no content exposure and no prior weight has a 0/0 content rate.
        // There (and for an app never seen), the sum as written.
        guard binsAreNumbers && u.isFinite && a < apps else {
            return stale * launchBeforeUpdate(app: a, now: now, updatesPerHour: u, horizon: horizon) >= bar
        }
        // The margin on "no": far above the rounding of the steps left.
        let no = bar / (1 + 1e-9)
        // The sum is at most 1: content probably fresh cannot reach the bar.
        if stale < no { return false }
        let extra = boosts(app: a, at: now)
        // With no short-lived term on, every step's share l / (l + u) is at
        // most the app's largest, and so is the sum.
        let most = maxBaseRate(app: a)
        let share = most + u > 0 ? most / (most + u) : 0
        let boosted = (extra.recency > 0 && extra.recencyUntil > now) || (extra.previous > 0 && extra.previousUntil > now)
        if !boosted && stale * share < no { return false }
        terms.prepare(app: a, revision: revision[a], updatesPerHour: u)
        let end = now + horizon
        var t = now, survive = 1.0, p = 0.0
        // Steps as written, until `t` is on an hour boundary with no
        // short-lived term on (at most one step per term and one to the hour).
        while t < end && survive >= 1e-4 {
            let recency = extra.recency > 0 && extra.recencyUntil > t
            let previous = extra.previous > 0 && extra.previousUntil > t
            if !recency && !previous && t.timeOfDay.microseconds % SimDuration.microsecondsPerHour == 0 { break }
            if stale * p >= bar { return true }
            if stale * (p + survive) < no { return false }
            let hour = Int64(t.timeOfDay.microseconds / SimDuration.microsecondsPerHour)
            t = boostedStep(app: a, from: t, to: min(end, SimTime(day: t.day, plus: .hours(hour + 1))), boosts: extra,
                            updatesPerHour: u, p: &p, survive: &survive)
        }
        // Whole hours from here (and a last part-hour), with no short-lived
        // term: read from the app's kept window where that answers
        // (LaunchWindows.swift), else summed as written.
        if t < end && survive >= 1e-4 && terms.keepWindows && bar > 0 {
            terms.windows.ensure(apps: apps, horizon: horizon)
            let whole = (end - t).microseconds / LaunchWindows.hour
            if let answer = terms.windowAnswer(bar, stale: stale, app: a, p: p, survive: survive, from: t, whole: Int(whole),
                                               rest: end - (t + .hours(whole)), updatesPerHour: u, share: share,
                                               baseRate: { baseRate(app: a, at: $0) }) {
                return answer
            }
        }
        // Each step's share is at most `share`.
        var day = t.day, hourOfDay = Int(t.timeOfDay.microseconds / SimDuration.microsecondsPerHour)
        var weekend = t.isWeekend
        while t < end && survive >= 1e-4 {
            if stale * p >= bar { return true }
            if stale * (p + survive * share) < no { return false }
            let l: Double, happens: Double
            if end - t < .hours(1) {
                // The last part-hour, as written.
                l = baseRate(app: a, at: t)
                happens = l + u > 0 ? -expm1(-(l + u) * (end - t).inHours) : 0
            } else {
                (l, happens) = terms.term(app: a, bin: (weekend ? 24 : 0) + hourOfDay) { baseRate(app: a, at: t) }
            }
            if l + u > 0 {
                p += survive * happens * l / (l + u)
                survive *= 1 - happens
            }
            t = min(end, t + .hours(1))
            hourOfDay += 1
            if hourOfDay == 24 { hourOfDay = 0; day += 1; weekend = SimTime(day: day).isWeekend }
        }
        return stale * p >= bar
    }
}

extension LaunchModel {
    /// One of the rule's steps (`launchBeforeUpdate`) from `t`, with the
    /// short-lived terms in `extra` where on: to `next` (the hour's or the
    /// horizon's end) or the end of a term on, if sooner, at the
    /// time-of-week rate plus the terms on. Adds the step's P(a launch
    /// first) to `p` and takes its P(an event) from `survive` in the rule's
    /// order of operations, so with the rule's bits. Returns where it ends.
    @inline(__always)
    func boostedStep(app a: Int, from t: SimTime, to next: SimTime, boosts extra: Boosts, updatesPerHour u: Double,
                     p: inout Double, survive: inout Double) -> SimTime {
        var next = next
        var l = baseRate(app: a, at: t)
        if extra.recency > 0 && extra.recencyUntil > t { l += extra.recency; next = min(next, extra.recencyUntil) }
        if extra.previous > 0 && extra.previousUntil > t { l += extra.previous; next = min(next, extra.previousUntil) }
        if l + u > 0 {
            let happens = -expm1(-(l + u) * (next - t).inHours)
            p += survive * happens * l / (l + u)
            survive *= 1 - happens
        }
        return next
    }
}
