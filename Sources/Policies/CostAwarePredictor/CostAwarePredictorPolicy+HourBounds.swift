import Foundation
import SimCore

extension CostAwarePredictorPolicy {
    /// The bounds of `LaunchHourBounds` on the launch factor of `app` at
    /// `now`, kept until the hour ends or the app's rates change; nil
    /// where a short-lived term is on, or where the rule sums as written
    /// (bins that are not numbers, a content rate that is not finite, an
    /// app the model has not seen).
    mutating func quietHourBounds(app a: Int, now: SimTime) -> (above: Double, below: Double)? {
        let u = content.rate(app: a)
        let binsAreNumbers = !launches.timeOfWeek
            || (launches.weekdaysSeen + launches.priorDays > 0 && launches.weekendDaysSeen + launches.priorDays > 0)
        guard binsAreNumbers && u.isFinite && a < launches.apps else { return nil }
        let extra = launches.boosts(app: a, at: now)
        guard extra.recency == 0 && extra.previous == 0 else { return nil }
        if let kept = hourBounds.kept(app: a, now: now, revision: launches.revision[a], updatesPerHour: u,
                                      horizon: horizon) {
            return kept
        }
        return keepHourBounds(app: a, now: now, updatesPerHour: u)
    }

    /// Works out and keeps the bounds (apart from `quietHourBounds`, whose
    /// every call would otherwise copy the launch model for this one).
    @inline(never)
    mutating func keepHourBounds(app a: Int, now: SimTime, updatesPerHour u: Double) -> (above: Double, below: Double) {
        let bounds = launches.hourBounds(app: a, now: now, updatesPerHour: u, horizon: horizon, terms: &hourTerms)
        hourBounds.keep(bounds, app: a, now: now, revision: launches.revision[a], updatesPerHour: u, horizon: horizon)
        return bounds
    }
}
