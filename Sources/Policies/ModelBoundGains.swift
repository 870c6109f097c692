import Foundation
import SimCore
import Traces

/// `model-bound`'s gain test (`ModelAwareBoundPolicy.gainReaches`) with
/// the same answers for less work. Why: the test is asked for every
/// pending refresh at every decision point, and as written it walks up to
/// 48 hours of update rates and 25 hours of `exp` steps; it made
/// `model-bound` cost several times what `greedy` costs per event.
///
/// - **P(launch first)** at the start of an hour is the rule's own sum,
///   with each (app, hour-of-the-week-kind) term's `exp` worked out once
///   for the run: the model's rates depend only on the hour of the day and
///   weekday or weekend, and a whole hour's term is the same arithmetic
///   wherever it falls. The sum's 25 hours reach into the next day and no
///   further, so it depends only on the hour of the day and on whether
///   that day and the next are weekend days: 96 cases per app, each worked
///   out once for the run. Bit for bit the rule's value.
/// - **Expected updates** since the last fetch are a difference of
///   cumulative sums (the updates expected from the start of a day to a
///   time of day): O(1) instead of an hourly walk. Rounding differs from
///   the walk's by far less than `updatesError`; where the gain is that
///   close to the bar, the rule as written decides. So every answer is the
///   rule's (`GainTestDifferentialTests` compares the two on random models).
/// - **An early no**: a bound on the gain over the rest of the hour, with
///   P(launch first), is kept per app (ModelBoundGains+StaleBound.swift),
///   so an app asked again within the hour, not fetched since, is mostly
///   refused without working out its expected updates.
struct ModelBoundGains: Sendable {
    /// The model these gains are for (nil: none yet; `prepare` sets it).
    private(set) var model: UsageModelKnowledge?
    private(set) var apps = 0
    /// Per app and bin (weekend · 24 + hour of the day): the launch and
    /// update rates and P(a launch or an update within that whole hour),
    /// index app · 48 + bin.
    var launchRate: [Double] = []
    var updateRate: [Double] = []
    var happens: [Double] = []
    /// Per app: expected updates from midnight to the start of each hour
    /// of the day, index app · 25 + hour (hour 24: the day's total).
    var cumulativeUpdates: [Double] = []
    /// P(launch first) at the start of an hour, per app and case, index
    /// app · 96 + case · 24 + hour of the day, the case being whether the
    /// hour's day (2) and the next day (1) are weekend days (NaN: not
    /// worked out yet).
    var launchFirstByCase: [Double] = []
    /// The hour of the trace last asked about and its case (as in
    /// `launchFirstByCase`): a decision point asks for every pending app
    /// in the same hour, and the case is the same for all.
    var hourCase = (hour: -1, kind: 0)
    /// Per app: the last fetch asked about and its expected updates from
    /// the midnight before it (`expectedUpdates`).
    var fetchTerm: [(at: SimTime, updates: Double)] = []
    /// Per app: a bound on the gain for the rest of the hour (`keptBound`).
    var staleBounds: [StaleBound] = []

    /// Works out the terms from `model` at the first call (the runner
    /// makes a policy per user, whose model does not change).
    mutating func prepare(_ model: UsageModelKnowledge) {
        guard self.model == nil else { return }
        self.model = model
        apps = max(model.launchesPerHour.count, model.updatesPerHour.count)
        launchRate = Array(repeating: 0, count: apps * 48)
        updateRate = Array(repeating: 0, count: apps * 48)
        happens = Array(repeating: 0, count: apps * 48)
        cumulativeUpdates = Array(repeating: 0, count: apps * 25)
        launchFirstByCase = Array(repeating: .nan, count: apps * 96)
        fetchTerm = Array(repeating: (SimTime(microseconds: -1), 0), count: apps)
        staleBounds = Array(repeating: StaleBound(), count: apps)
        for a in 0..<apps {
            for bin in 0..<48 {
                // A time in that bin (day 5 is a Saturday) read through the
                // model's own accessors, so a bin means what it means there.
                let t = SimTime(day: bin < 24 ? 0 : 5, plus: .hours(Int64(bin % 24)))
                let l = model.launchRate(app: a, at: t), u = model.updateRate(app: a, at: t)
                launchRate[a * 48 + bin] = l
                updateRate[a * 48 + bin] = u
                // The rule's term for a whole hour (length exactly 1).
                happens[a * 48 + bin] = 1 - exp(-(l + u) * 1.0)
            }
            for h in 0..<24 {
                cumulativeUpdates[a * 25 + h + 1] = cumulativeUpdates[a * 25 + h] + updateRate[a * 48 + h]
            }
        }
    }

    /// The rule's answer: `ModelAwareBoundPolicy.gainReaches(bar, model, ...)`
    /// for the prepared model.
    mutating func reaches(_ bar: Double, app a: Int, fetchedAt: SimTime, now: SimTime) -> Bool {
        guard a < apps else { return ModelAwareBoundPolicy.gainReaches(bar, model!, app: a, fetchedAt: fetchedAt, now: now) }
        let hour = Int(now.microseconds / SimDuration.microsecondsPerHour)
        let kept = keptBound(app: a, fetchedAt: fetchedAt, hour: hour)
        guard kept.gain >= bar else { return false }
        let first = kept.launchFirst
        let (m, error) = expectedUpdates(app: a, from: fetchedAt, to: now)
        // The rule's gain, (1 − e^−m) · first, differs from the one worked
        // out here by the expected updates' error (P(stale) moves by at
        // most as much), the rule's stop at 30 expected updates (P(stale)
        // then within e^−30 < 1e-13 of 1) and rounding (below 1e-15).
        let margin = Self.margin(launchFirst: first, error: error)
        // Most answers need no `exp`: m / (1 + m) ≤ 1 − e^−m ≤ min(m, 1).
        if min(m, 1) * first + margin < bar { return false }
        if m / (1 + m) * first - margin >= bar { return true }
        let gain = (1 - exp(-m)) * first
        if gain - margin >= bar { return true }
        if gain + margin < bar { return false }
        return ModelAwareBoundPolicy.gainReaches(bar, model!, app: a, fetchedAt: fetchedAt, now: now)
    }

    /// How far the rule's gain can be from P(launch first) · P(stale)
    /// worked out from expected updates that are within `error` of the
    /// rule's (see `reaches`).
    @inline(__always)
    static func margin(launchFirst first: Double, error: Double) -> Double {
        first * (error + 1e-13) + 1e-15
    }

    /// `ModelAwareBoundPolicy.launchBeforeUpdate` at the start of `now`'s
    /// hour.
    mutating func launchFirst(app a: Int, now: SimTime) -> Double {
        launchFirst(app: a, hour: Int(now.microseconds / SimDuration.microsecondsPerHour))
    }

    /// `ModelAwareBoundPolicy.launchBeforeUpdate` at the start of hour
    /// `hour` of the trace: the same sum over the same terms, in the same
    /// order, for the hour's case (see `launchFirstByCase`).
    mutating func launchFirst(app a: Int, hour: Int) -> Double {
        if hour != hourCase.hour {
            let day = hour / 24
            hourCase = (hour, (SimTime(day: day).isWeekend ? 2 : 0) + (SimTime(day: day + 1).isWeekend ? 1 : 0))
        }
        let i = a * 96 + hourCase.kind * 24 + hour % 24
        if launchFirstByCase[i].isNaN {
            // Terms k < 24 − hour of the day fall on the hour's day, the
            // rest (at least the last) on the next.
            let weekend = (today: hourCase.kind >= 2, tomorrow: hourCase.kind % 2 == 1)
            var survive = 1.0, p = 0.0
            for k in 0..<25 {
                let h = hour + k
                let bin = a * 48 + ((k < 24 - hour % 24 ? weekend.today : weekend.tomorrow) ? 24 : 0) + h % 24
                let l = launchRate[bin], u = updateRate[bin]
                if l + u > 0 {
                    let happens = happens[bin]
                    p += survive * happens * l / (l + u)
                    survive *= 1 - happens
                }
                if survive < 1e-4 { break }
            }
            launchFirstByCase[i] = p
        }
        return launchFirstByCase[i]
    }

    /// `ModelAwareBoundPolicy.expectedUpdates` (without its stop at 30) as
    /// a difference of cumulative sums, and a bound on how far the walk's
    /// rounding can be from it: both sums are within a few hundred
    /// roundings of the exact value of at most three days' updates.
    ///
    /// The term of the last fetch (`from`, while it is within the 48 hours)
    /// is kept per app until the next fetch: the same arithmetic, so the
    /// same value, worked out once instead of at every test.
    mutating func expectedUpdates(app a: Int, from: SimTime, to: SimTime) -> (m: Double, error: Double) {
        let start = max(from, to - .hours(48))
        guard start < to else { return (0, 0) }
        let firstDay = start.microseconds / SimDuration.microsecondsPerDay
        let atStart: Double
        if start == from {
            if fetchTerm[a].at != from { fetchTerm[a] = (from, updates(app: a, fromMidnightOf: firstDay, to: from)) }
            atStart = fetchTerm[a].updates
        } else {
            atStart = updates(app: a, fromMidnightOf: firstDay, to: start)
        }
        return (updates(app: a, fromMidnightOf: firstDay, to: to) - atStart, updatesError(app: a, days: 3))
    }

    /// Expected updates of `a` from the midnight that starts day `firstDay`
    /// to `t`, a time of that day or later (times of a run are ≥ 0, so
    /// division is floor division).
    @inline(__always)
    func updates(app a: Int, fromMidnightOf firstDay: Int64, to t: SimTime) -> Double {
        let days = t.microseconds / SimDuration.microsecondsPerDay
        let ofDay = t.microseconds - days * SimDuration.microsecondsPerDay
        let h = Int(ofDay / SimDuration.microsecondsPerHour)
        let intoHour = Double(ofDay - Int64(h) * SimDuration.microsecondsPerHour) / Double(SimDuration.microsecondsPerHour)
        return Double(days - firstDay) * cumulativeUpdates[a * 25 + 24] + cumulativeUpdates[a * 25 + h]
            + updateRate[a * 48 + h] * intoHour
    }

    /// How far a difference of two `updates` within `days` days of one
    /// midnight, or the rule's walk over the same span, can be from the
    /// exact expected updates: a few hundred roundings of at most `days`
    /// days' updates, with room to spare.
    @inline(__always)
    func updatesError(app a: Int, days: Double) -> Double {
        1e-12 * (1 + days * cumulativeUpdates[a * 25 + 24])
    }
}
