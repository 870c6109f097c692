import Foundation
import SimCore

extension CostAwarePredictorPolicy {
    /// Whether the gain of `app` at `now` is surely below `bar` (> 0),
    /// told from bounds without an `exp` or a sum; false where the bounds
    /// cannot tell, and then the caller's test decides. Every "true" is
    /// the rule's answer: the bounds are above the rule's values by more
    /// than their rounding (a relative 1e-9 below the bar is kept clear).
    /// Why: most tests come out "no", and each took an `expm1` for
    /// P(stale) and then the launch factor's steps.
    ///
    /// - P(stale) = 1 − e^−m is at most min(m, 1), and the launch factor
    ///   at most 1: min(m, 1) below the bar is a "no" (`m` is
    ///   `ContentRateEstimator.staleExponent`; NaN is a "no" too, as the
    ///   rule's `0 >= bar`).
    /// - With no short-lived term on, the launch factor is at most the
    ///   app's bound over the current hour (`LaunchHourBounds`), kept
    ///   until the hour ends or the app's rates change.
    mutating func quicklyBelow(_ bar: Double, staleExponent m: Double, app a: Int, now: SimTime) -> Bool {
        let no = bar / (1 + 1e-9)
        let stale = min(m, 1)
        if !(stale >= no) { return true }
        let u = content.rate(app: a)
        // Bins that are not numbers or a rate that is not finite: the sum as written.
        let binsAreNumbers = !launches.timeOfWeek
            || (launches.weekdaysSeen + launches.priorDays > 0 && launches.weekendDaysSeen + launches.priorDays > 0)
        guard binsAreNumbers && u.isFinite && a < launches.apps else { return false }
        let extra = launches.boosts(app: a, at: now)
        guard extra.recency == 0 && extra.previous == 0 else { return false }
        let revision = launches.revision[a]
        let bound: Double
        if let kept = hourBounds.kept(app: a, now: now, revision: revision, updatesPerHour: u, horizon: horizon) {
            bound = kept
        } else {
            bound = launches.hourBound(app: a, now: now, updatesPerHour: u, horizon: horizon, terms: &hourTerms)
            hourBounds.keep(bound, app: a, now: now, revision: revision, updatesPerHour: u, horizon: horizon)
        }
        return stale * bound < no
    }
}
