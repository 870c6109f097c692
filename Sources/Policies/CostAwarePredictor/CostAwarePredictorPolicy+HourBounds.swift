import Foundation
import SimCore

extension CostAwarePredictorPolicy {
    /// An upper bound on the launch factor of `app` over the current hour
    /// (`ceiling`), from the app's `LaunchHourBound` for that hour (kept
    /// until the hour ends or its rates change), that bound, and whether a
    /// short-lived term is on (for `launchBelow` and `exactLaunchBounds`);
    /// nil where the rule sums as written (bins that are not numbers, a
    /// content rate that is not finite, an app the model has not seen) or
    /// a short-lived term lasts past the hour. With no term on, the bound
    /// at `now` (`hour.above(now)`) is tighter, and worked out only where
    /// the ceiling does not answer; the lower bound is apart
    /// (`launchBelow`): most tests end with an upper one.
    ///
    /// With short-lived terms on until E within the hour, the factor is
    /// what comes before E — an event then, with a launch share at most
    /// `sb` (the largest time-of-week rate plus the terms, over that plus
    /// the content rate) — and P(nothing before E) times the factor from
    /// E on with none, which the bound over the whole hour holds (E is in
    /// the hour). So it is at most max(sb, that); no lower bound is given then.
    ///
    /// - Complexity: O(1) with the hour's bound kept; else that of
    ///   `LaunchModel.hourBounds` (`keepHourBounds`, out of line: inlined
    ///   into `gainReaches`, the kept path's result stays in registers).
    @inline(__always)
    mutating func launchBounds(app a: Int, now: SimTime) -> (ceiling: Double, hour: LaunchHourBound, boosted: Bool)? {
        let u = content.rate(app: a)
        guard launches.binsAreNumbers && u.isFinite && a < launches.apps else { return nil }
        let extra = launches.mayBoost(app: a, at: now) ? launches.boosts(app: a, at: now) : nil
        let boosted = extra.map { $0.recency > 0 || $0.previous > 0 } ?? false
        if let extra, boosted {
            let hour = SimDuration.microsecondsPerHour
            let hourEnd = (now.microseconds / hour + 1) * hour
            let until = max(extra.recency > 0 ? extra.recencyUntil : now, extra.previous > 0 ? extra.previousUntil : now)
            guard until.microseconds < hourEnd else { return nil }
        }
        let quiet = hourBounds.kept(app: a, now: now, revision: launches.revision[a], updatesPerHour: u, horizon: horizon)
            ?? keepHourBounds(app: a, now: now, updatesPerHour: u)
        guard let extra, boosted else { return (quiet.wholeHourAbove, quiet.bound, false) }
        let most = launches.maxBaseRate(app: a) + extra.recency + extra.previous
        let sb = most + u > 0 ? most / (most + u) : 0
        return (max(sb, quiet.wholeHourAbove), quiet.bound, true)
    }

    /// The lower bound on the launch factor that goes with `launchBounds`
    /// (`hour`, `boosted`): the hour's bracket at `now`; none (−∞) with a
    /// short-lived term on.
    @inline(__always)
    func launchBelow(now: SimTime, hour: LaunchHourBound, boosted: Bool) -> Double {
        boosted ? -.infinity : hour.below(now)
    }

    /// The bounds of `launchBounds` with the part-hour steps worked out as
    /// the rule does: with no short-lived term on, `hour.exactly`; with
    /// terms on (`boosted`; they end within the hour, as `launchBounds`
    /// asks), the rule's own steps until they end, then `hour.exactly`
    /// from there. Nil for a horizon under an hour (its end could come
    /// before the terms').
    ///
    /// `mutating` only so that `gainReaches` passes the policy in place: a
    /// non-mutating call from a mutating one copies the whole policy first.
    mutating func exactLaunchBounds(app a: Int, now: SimTime, hour: LaunchHourBound,
                           boosted: Bool) -> (above: Double, below: Double)? {
        guard boosted else { return hour.exactly(now) }
        guard horizon.microseconds >= SimDuration.microsecondsPerHour else { return nil }
        let extra = launches.boosts(app: a, at: now), u = content.rate(app: a)
        var t = now, p = 0.0, survive = 1.0
        // The rule's steps while a term is on.
        while (extra.recency > 0 && extra.recencyUntil > t) || (extra.previous > 0 && extra.previousUntil > t) {
            t = launches.boostedStep(app: a, from: t, to: SimTime(microseconds: hour.end), boosts: extra, updatesPerHour: u,
                                     p: &p, survive: &survive)
        }
        return hour.exactly(now, from: t, after: (p, survive))
    }

    /// Works out and keeps the bounds (apart from `launchBounds`, whose
    /// every call would otherwise copy the launch model for this one).
    @inline(never)
    mutating func keepHourBounds(app a: Int, now: SimTime, updatesPerHour u: Double) -> LaunchHourBounds.Kept {
        let bounds = launches.hourBounds(app: a, now: now, updatesPerHour: u, horizon: horizon, terms: &hourTerms)
        return hourBounds.keep(bounds, app: a, now: now, revision: launches.revision[a], updatesPerHour: u,
                               horizon: horizon)
    }
}
