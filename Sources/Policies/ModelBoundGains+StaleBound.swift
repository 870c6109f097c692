import SimCore

/// What `model-bound` keeps per app for the hour: P(launch first) and a
/// bound on the gain for the rest of the hour, P(launch first) times the
/// most P(stale) can reach before the hour ends. Why: an app whose
/// request is turned down is asked again at every decision point of the
/// hour, and as long as it is not fetched only the clock moves; a bound
/// below the bar answers those asks (most of them) without looking up
/// P(launch first) or working out expected updates.
///
/// Exact, because it is an upper bound on the rule's gain at every time
/// of the hour: P(launch first) is one value for the hour (the rule takes
/// it at the hour's start); P(stale) = 1 − e^−m ≤ 1, and rounding the
/// product cannot take it above P(launch first); and the expected updates
/// the rule sums, over [max(fetch, now − 48 h), now), lie inside
/// [max(fetch, hour start − 48 h), hour end) for any `now` in the hour,
/// so with rates ≥ 0 they are at most that span's (up to rounding, which
/// the margin covers as in `reaches`). Its inputs are the hour and the
/// last fetch; either changing makes it stale and it is worked out again.
struct StaleBound: Sendable {
    /// The hour of the trace (hours since its start) it holds for (−1: none).
    var hour = -1
    /// The last fetch it assumes.
    var fetchedAt = SimTime(microseconds: -1)
    /// P(launch first) in `hour` (`ModelBoundGains.launchFirst`).
    var launchFirst = 0.0
    /// At least the rule's gain at any time of `hour` with content last
    /// fetched at `fetchedAt`.
    var gain = 0.0
}

extension ModelBoundGains {
    /// The bound kept for app `a` (one of the model's) in hour `hour` of
    /// the trace with content last fetched at `fetchedAt`, worked out at
    /// the first ask for that hour and fetch.
    @inline(__always)
    mutating func keptBound(app a: Int, fetchedAt: SimTime, hour: Int) -> StaleBound {
        if staleBounds[a].hour != hour || staleBounds[a].fetchedAt != fetchedAt {
            staleBounds[a] = staleBound(app: a, fetchedAt: fetchedAt, hour: hour)
        }
        return staleBounds[a]
    }

    /// `StaleBound` for app `a` in hour `hour` of the trace.
    mutating func staleBound(app a: Int, fetchedAt: SimTime, hour: Int) -> StaleBound {
        let first = launchFirst(app: a, hour: hour)
        let hourStart = SimTime(microseconds: Int64(hour) * SimDuration.microsecondsPerHour)
        let hourEnd = hourStart + .hours(1)
        let start = max(fetchedAt, hourStart - .hours(48))
        // Fetched after the hour: nothing in it is stale.
        guard start < hourEnd else { return StaleBound(hour: hour, fetchedAt: fetchedAt, launchFirst: first, gain: 0) }
        let firstDay = start.microseconds / SimDuration.microsecondsPerDay
        let m = updates(app: a, fromMidnightOf: firstDay, to: hourEnd) - updates(app: a, fromMidnightOf: firstDay, to: start)
        // From the midnight before `start` to the hour's end: at most 73 hours.
        let gain = min(m, 1) * first + Self.margin(launchFirst: first, error: updatesError(app: a, days: 4))
        return StaleBound(hour: hour, fetchedAt: fetchedAt, launchFirst: first, gain: min(gain, first))
    }
}
