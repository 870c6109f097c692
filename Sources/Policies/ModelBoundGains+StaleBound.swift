import SimCore

/// A bound, kept per app, on `model-bound`'s gain for the rest of an hour:
/// P(launch first) for that hour times the most P(stale) can reach before
/// the hour ends (`ModelBoundGains.mayReach`). Why: an app whose request
/// is turned down is asked again at every decision point of the hour, and
/// as long as it is not fetched only the clock moves; a bound below the
/// bar answers those asks without working out expected updates.
///
/// Exact, because it is an upper bound on the rule's gain at every time
/// of the hour: P(launch first) is one value for the hour (the rule takes
/// it at the hour's start), and the expected updates the rule sums, over
/// [max(fetch, now − 48 h), now), lie inside [max(fetch, hour start −
/// 48 h), hour end) for any `now` in the hour, so with rates ≥ 0 they are
/// at most that span's (up to rounding, which the margin covers as in
/// `reaches`). Its inputs are the hour and the last fetch; either
/// changing makes it stale and it is worked out again.
struct StaleBound: Sendable {
    /// The hour of the trace (hours since its start) it holds for (−1: none).
    var hour = -1
    /// The last fetch it assumes.
    var fetchedAt = SimTime(microseconds: -1)
    /// At least the rule's gain at any time of `hour` with content last
    /// fetched at `fetchedAt`.
    var gain = 0.0
}

extension ModelBoundGains {
    /// False only where the rule's answer is no, for app `a` (one of the
    /// model's) whose P(launch first) in hour `hour` of the trace is
    /// `first`, asked at a time of that hour. Cheap: it works out expected
    /// updates at most once per app, hour and fetch.
    @inline(__always)
    mutating func mayReach(_ bar: Double, app a: Int, fetchedAt: SimTime, hour: Int,
                           launchFirst first: Double) -> Bool {
        // The gain is P(stale) · first with P(stale) = 1 − e^−m ≤ 1, and
        // rounding the product cannot take it above `first`.
        if first < bar { return false }
        if staleBounds[a].hour != hour || staleBounds[a].fetchedAt != fetchedAt {
            staleBounds[a] = StaleBound(hour: hour, fetchedAt: fetchedAt,
                                        gain: staleGainBound(app: a, fetchedAt: fetchedAt, hour: hour, launchFirst: first))
        }
        return staleBounds[a].gain >= bar
    }

    /// The bound of `StaleBound` for app `a` in hour `hour` of the trace.
    func staleGainBound(app a: Int, fetchedAt: SimTime, hour: Int, launchFirst first: Double) -> Double {
        let hourStart = SimTime(microseconds: Int64(hour) * SimDuration.microsecondsPerHour)
        let hourEnd = hourStart + .hours(1)
        let start = max(fetchedAt, hourStart - .hours(48))
        // Fetched after the hour: nothing in it is stale.
        guard start < hourEnd else { return 0 }
        let firstDay = start.microseconds / SimDuration.microsecondsPerDay
        let m = updates(app: a, fromMidnightOf: firstDay, to: hourEnd) - updates(app: a, fromMidnightOf: firstDay, to: start)
        // From the midnight before `start` to the hour's end: at most 73 hours.
        return min(m, 1) * first + Self.margin(launchFirst: first, error: updatesError(app: a, days: 4))
    }
}
