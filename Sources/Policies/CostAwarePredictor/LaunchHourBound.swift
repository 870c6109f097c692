import Foundation
import SimCore

/// Per app, what bounds P(the next launch comes before the next update)
/// (`LaunchModel.launchBeforeUpdate`, the rule's sum as written) at every
/// time within one hour while no short-lived term is on, kept for the
/// app's current rates (`LaunchHourBound`). Why: a gain test comes several
/// times an hour for the same app, and most answers are far from the bar;
/// with the bounds, P(stale) times them answers those with a comparison or
/// two, without summing (`CostAwarePredictorPolicy.gainReaches`).
struct LaunchHourBounds: Sendable {
    /// One app's kept bound and what it is for.
    struct Kept: Sendable {
        /// The hour's start, microseconds since the trace's start
        /// (`Int64.min`: none).
        var start = Int64.min
        /// The launch model's revision and the content rate, bit for bit.
        var revision: UInt32 = 0
        var updatesPerHour: UInt64 = 0
        var bound = LaunchHourBound()
        /// `bound.wholeHour.above`: an upper bound at every time of the
        /// hour, so most tests end without working out the one at `now`.
        var wholeHourAbove = 0.0
    }

    /// Per app, in one record so that a test reads it with one bounds check.
    var kept: [Kept] = []
    /// The horizon every kept bound is for.
    var horizon = SimDuration.zero

    /// The kept record of `app` for the hour of `now`, if it is for these rates.
    @inline(__always)
    func kept(app a: Int, now: SimTime, revision r: UInt32, updatesPerHour u: Double,
              horizon: SimDuration) -> Kept? {
        guard a < kept.count, horizon == self.horizon else { return nil }
        let k = kept[a]
        // `now` in [start, start + 1 h): one unsigned comparison (none
        // kept: `Int64.min`, far outside).
        guard UInt64(bitPattern: now.microseconds &- k.start) < UInt64(SimDuration.microsecondsPerHour),
              k.revision == r, k.updatesPerHour == u.bitPattern else { return nil }
        return k
    }

    mutating func keep(_ value: LaunchHourBound, app a: Int, now: SimTime, revision r: UInt32, updatesPerHour u: Double,
                       horizon: SimDuration) -> Kept {
        if horizon != self.horizon {
            self.horizon = horizon
            for i in kept.indices { kept[i].start = .min }
        }
        if a >= kept.count { kept += Array(repeating: Kept(), count: a + 1 - kept.count) }
        let hour = SimDuration.microsecondsPerHour
        kept[a] = Kept(start: now.microseconds / hour * hour, revision: r, updatesPerHour: u.bitPattern, bound: value,
                       wholeHourAbove: value.wholeHour.above)
        return kept[a]
    }
}

/// One app's launch factor over one hour `[T, T + 1 h)` with no
/// short-lived term on, taken apart as the rule's sum takes it: a first
/// step from `now` to `T + 1 h` at the hour's rates, then X(now), the same
/// sum from `T + 1 h` to `now + horizon`.
///
/// Why these are bounds: the rule's sum from `now` is the first step's
/// P(an event) h = 1 − e^−y (y = (l + u) · its hours: to `T + 1 h`, or
/// to `now + horizon` if sooner) times its launch share s₀ = l / (l + u),
/// plus (1 − h) · X(now), less at most 1e-4 where the rule stops at
/// P(neither yet) < 1e-4. X(now) is at most
/// `after.high`, X over whole hours to `T + 1 h + horizon` (a longer
/// window; the hours past where what they can add is small bounded
/// by the largest share), and at least `after.low`, over whole hours to
/// `T + horizon`. h lies in [y / (1 + y), min(y, H₀)] (H₀: P(an event) in
/// the whole hour, at least that of a shorter step), and the sum
/// h · s₀ + (1 − h) · X is linear in h, so its extremes are at the ends
/// of that range (`above`, `below`), or at h itself where it is worked out as the
/// rule does (`exactly`). Every term is at most 1 and rounds by about
/// 1e-16, far inside the relative 1e-9 margin the caller keeps from the bar.
/// Where the walk is carried on from the previous hour's, X's bounds are
/// widened by what that carry's rounding can reach (LaunchHourWalk.swift).
struct LaunchHourBound: Sendable {
    /// The hour's end, microseconds since the trace's start, and the
    /// horizon's length (the first step ends at whichever comes first).
    var end: Int64 = 0
    var horizon: Int64 = 0
    /// l + u of the hour's time-of-week bin, per hour.
    var rate = 0.0
    /// H₀ = P(a launch or an update within the whole hour).
    var happens = 0.0
    /// s₀ = l / (l + u) (0 where both are 0).
    var share = 0.0
    /// Bounds on X(now) at every time of the hour.
    var after = (low: 0.0, high: 0.0)

    /// The upper bound at `now`, from the bracket on h (most tests end with it).
    @inline(__always)
    func above(_ now: SimTime) -> Double {
        let (lo, hi) = bracket(now)
        return highest(lo, hi)
    }

    /// The lower bound at `now`, from the bracket on h.
    @inline(__always)
    func below(_ now: SimTime) -> Double {
        let (lo, hi) = bracket(now)
        return lowest(lo, hi) - 1e-4
    }

    /// The range of the first step's P(an event) h at `now`: y / (1 + y) ≤
    /// 1 − e^−y ≤ min(y, H₀).
    @inline(__always)
    func bracket(_ now: SimTime) -> (lo: Double, hi: Double) {
        let y = rate * firstStep(now).inHours
        return (y / (1 + y), min(y, happens))
    }

    /// The bounds at `now`, with h as the rule's first step works it out
    /// (the same expression of the same numbers, so the same h). With
    /// `prefix`, the rule's sum and P(neither yet) at `start` in the hour
    /// (where the short-lived terms on at `now` have ended), the first
    /// step is from `start`, and the sum is prefix.sum + prefix.survive ·
    /// that; what the rule's stop leaves out there is less than 1e-4 too
    /// (P(neither yet) times a share of at most 1).
    func exactly(_ now: SimTime, from start: SimTime? = nil,
                 after prefix: (sum: Double, survive: Double) = (0, 1)) -> (above: Double, below: Double) {
        let step = start.map { SimDuration(microseconds: min(end, now.microseconds + horizon) - $0.microseconds) }
            ?? firstStep(now)
        let h = rate > 0 ? -expm1(-rate * step.inHours) : 0
        return between(h, h, after: prefix)
    }

    /// The rule's first step from `now`: to the hour's end or the horizon's.
    @inline(__always)
    func firstStep(_ now: SimTime) -> SimDuration {
        SimDuration(microseconds: min(end - now.microseconds, horizon))
    }

    /// The bounds over the whole hour (h anywhere in [0, H₀]).
    var wholeHour: (above: Double, below: Double) { between(0, happens) }

    /// The sum's extremes with h in [`lo`, `hi`] and X in `after`, after `prefix`.
    @inline(__always)
    func between(_ lo: Double, _ hi: Double,
                 after prefix: (sum: Double, survive: Double) = (0, 1)) -> (above: Double, below: Double) {
        (prefix.sum + prefix.survive * highest(lo, hi), prefix.sum + prefix.survive * lowest(lo, hi) - 1e-4)
    }

    /// The largest of h · s₀ + (1 − h) · X over h in [`lo`, `hi`], X in `after`.
    @inline(__always)
    func highest(_ lo: Double, _ hi: Double) -> Double {
        max(lo * share + (1 - lo) * after.high, hi * share + (1 - hi) * after.high)
    }

    /// The smallest of h · s₀ + (1 − h) · X over h in [`lo`, `hi`], X in `after`.
    @inline(__always)
    func lowest(_ lo: Double, _ hi: Double) -> Double {
        min(lo * share + (1 - lo) * after.low, hi * share + (1 - hi) * after.low)
    }
}

extension LaunchModel {
    /// The `LaunchHourBound` of `app` for the hour of `now` (whole-hour
    /// steps read from, and kept in, `terms`: most of the bins it steps
    /// through were worked out for an earlier hour at the same rates; the
    /// walk over them carried on from the previous hour's where that was
    /// for the same rates, LaunchHourWalk.swift). Only for an app this
    /// model has seen, with bins that are numbers and a finite content
    /// rate: the caller asks nothing else.
    ///
    /// - Complexity: O(h) for the h whole hours stepped through (at most the
    ///   horizon's; fewer once what is left is small; about one where the
    ///   previous hour's walk is carried on), an `expm1` for each bin not
    ///   kept yet.
    func hourBounds(app a: Int, now: SimTime, updatesPerHour u: Double, horizon: SimDuration,
                    terms: inout LaunchHourTerms) -> LaunchHourBound {
        terms.prepare(app: a, revision: revision[a], updatesPerHour: u)
        let hour = SimDuration.microsecondsPerHour
        let most = maxBaseRate(app: a)
        let share = most + u > 0 ? most / (most + u) : 0
        let current = now.microseconds / hour
        // Whole hours from the next on: `longest` of them for above, `shortest` for below.
        let longest = (horizon.microseconds + hour - 1) / hour, shortest = horizon.microseconds / hour - 1
        let mean = meanRate(app: a)
        var day = now.day, hourOfDay = Int(now.timeOfDay.microseconds / hour), weekend = now.isWeekend
        /// The whole-hour step at the current bin.
        func step() -> LaunchHourTerms.Step {
            let bin = (weekend ? 24 : 0) + hourOfDay
            return terms.step(app: a, bin: bin) { baseRate(app: a, bin: bin, mean: mean) }
        }
        let first = step()
        let rate0 = first.rate + u > 0 ? first.rate + u : 0
        let carried = terms.carryWalks
            ? terms.walks[a].carried(to: current, horizon: horizon.microseconds, first: first, shortest: shortest)
            : nil
        if let carried {
            // On from the last hour the carried walk summed.
            let last = current + carried.steps
            day = Int(last / 24)
            hourOfDay = Int(last % 24)
            weekend = SimTime(day: day).isWeekend
        }
        var w = carried ?? LaunchHourWalk(hour: current, horizon: horizon.microseconds)
        var tail = 0.0
        var j = w.steps + 1
        while j <= longest {
            // What is left adds at most survive · share: stop where that is
            // under 1 % of the sum so far. A finer cut walks (and works
            // out) more bins for the few answers that close to the bar,
            // which the sum answers anyway.
            if w.survive * share <= 1e-2 * w.sum { tail = w.survive * share; break }
            hourOfDay += 1
            if hourOfDay == 24 { hourOfDay = 0; day += 1; weekend = SimTime(day: day).isWeekend }
            let next = step()
            w.sum += w.survive * next.happens * next.share
            if j <= shortest { w.low = w.sum }
            w.survive *= 1 - next.happens
            j += 1
        }
        w.steps = j - 1
        terms.walks[a] = w
        return LaunchHourBound(end: (current + 1) * hour, horizon: horizon.microseconds, rate: rate0,
                               happens: first.happens, share: first.share,
                               after: (w.low - w.slack, w.sum + tail + w.slack))
    }
}
