import Foundation
import SimCore

/// The whole-hour part of the `cost-aware-predictor`'s gain sum, kept per
/// app from one hour boundary on, so that most gain tests read it instead
/// of summing it. Why: the policy asks the test for every pending refresh
/// at every decision point — several times an hour for the same app, with
/// the same rates and the same next hour boundary — and after the early
/// exits and the kept `expm1` terms (`LaunchHourTerms`) the hour-by-hour
/// steps were still most of the policy's cost (Docs/Performance.md).
///
/// From boundary `T` on, with no short-lived term on, the rule's sum goes
/// on as `p += survive · h_j · s_j; survive *= 1 − h_j` over whole hours
/// j = 0, 1, … (h_j: P(a launch or an update within hour j), s_j = l/(l+u)).
/// Starting from `survive` = S and `p` = p₀, that is p₀ + S · P_j after j
/// hours and S · R_j left to survive, where P and R are the same sums
/// started from 1 and 0: they depend on the app's rates and `T` only, and
/// are kept here. The rule stops where `survive` drops below 1e-4, which
/// S · R_j tells; the last part-hour before the horizon's end is one step.
///
/// S · P_j rounds differently from the rule's running sum (a few roundings
/// per step, relative 1e-14 over a day), so the answer is taken from it
/// only where the gain is further than a relative 1e-9 from the bar and no
/// survival is within that of the 1e-4 stop; otherwise (`nil`) the caller
/// sums as the rule does. So every answer is the rule's
/// (`GainTestDifferentialTests` checks it on random models and contexts,
/// bars placed at the gain and one rounding either side).
struct LaunchWindows: Sendable {
    /// Entries per app: the horizon's whole hours + 1 (set by `reset`).
    private(set) var stride = 0
    /// The horizon `stride` is for.
    private(set) var horizon = SimDuration.zero
    /// Per app: the hour (since the trace's start) the kept window starts
    /// at (nil: none kept for the current rates), and how many entries of
    /// it are filled.
    var start: [Int64?] = []
    var filled: [Int] = []
    /// Index app · stride + j: R_j and P_j of the window.
    var survive: [Double] = []
    var launched: [Double] = []

    static let hour = SimDuration.microsecondsPerHour
    /// The relative distance from the bar (and from the 1e-4 stop) below
    /// which the kept sums do not answer.
    static let margin = 1e-9

    /// Makes room for `apps` apps and a horizon of `horizon`; forgets every
    /// window if the horizon's length changed.
    @inline(__always)
    mutating func ensure(apps: Int, horizon: SimDuration) {
        if horizon == self.horizon && apps <= start.count { return }
        self.horizon = horizon
        let k = Int(horizon.microseconds / Self.hour) + 1
        if k != stride {
            stride = k
            start = Array(repeating: nil, count: start.count)
            survive = Array(repeating: 0, count: start.count * k)
            launched = survive
        }
        if apps > start.count {
            let n = apps - start.count
            start += Array(repeating: nil, count: n)
            filled += Array(repeating: 0, count: n)
            survive += Array(repeating: 0, count: n * stride)
            launched += Array(repeating: 0, count: n * stride)
        }
    }

    /// The app's rates changed: its window no longer holds.
    mutating func forget(app a: Int) {
        if a < start.count { start[a] = nil }
    }
}

extension LaunchHourTerms {
    /// The rule's answer to `stale · p ≥ bar` (bar > 0), where the sum
    /// stands at `p` with `survive` left at the hour boundary `t`, no
    /// short-lived term on from there, `whole` whole hours to go and then
    /// a last part-hour of `rest`; nil where the kept sums are too close
    /// to call. `share` is at least every step's l/(l+u) (so what is left
    /// to add is at most survive · share); `baseRate` is the app's
    /// time-of-week rate at a time. The window is extended only as far as
    /// the answer needs, as the summed loop would go.
    mutating func windowAnswer(_ bar: Double, stale: Double, app a: Int, p p0: Double, survive s0: Double,
                               from t: SimTime, whole n: Int, rest: SimDuration, updatesPerHour u: Double,
                               share: Double, baseRate: (SimTime) -> Double) -> Bool? {
        let hour = t.microseconds / LaunchWindows.hour
        let base = a * windows.stride
        if windows.start[a] != hour {
            windows.start[a] = hour
            windows.survive[base] = 1
            windows.launched[base] = 0
            windows.filled[a] = 1
        }
        let hi = 1e-4 * (1 + LaunchWindows.margin), lo = 1e-4 / (1 + LaunchWindows.margin)
        let yes = bar * (1 + LaunchWindows.margin), no = bar / (1 + LaunchWindows.margin)
        /// The answer where the rule's sum ends after `steps` whole hours.
        func ended(after steps: Int) -> Bool? {
            let sum = p0 + s0 * windows.launched[base + steps]
            if stale * sum >= yes { return true }
            if stale * sum < no { return false }
            return nil
        }
        // The rule asks `survive >= 1e-4` before each whole hour and before
        // the last part (`checks` in all). Among the entries kept, the
        // first that fails, by binary search (S · R_j is non-increasing).
        let checks = rest.microseconds > 0 ? n + 1 : n
        var f = windows.filled[a]
        var low = 0, high = min(checks, f)
        while low < high {
            let mid = (low + high) / 2
            if s0 * windows.survive[base + mid] >= hi { low = mid + 1 } else { high = mid }
        }
        if low < min(checks, f) {
            return s0 * windows.survive[base + low] >= lo ? nil : ended(after: min(low, n))
        }
        // Every kept check passes: on from the last entry kept, extending
        // the window an hour at a time until the answer is known.
        while f <= n {
            let j = f - 1
            let lower = p0 + s0 * windows.launched[base + j]
            if stale * lower >= yes { return true }
            if stale * (lower + s0 * windows.survive[base + j] * share) < no { return false }
            let at = t + .hours(Int64(j))
            let bin = (at.isWeekend ? 24 : 0) + Int(at.timeOfDay.microseconds / LaunchWindows.hour)
            let (l, happens) = term(app: a, bin: bin) { baseRate(at) }
            var r = windows.survive[base + j], q = windows.launched[base + j]
            if l + u > 0 {
                q += r * happens * l / (l + u)
                r *= 1 - happens
            }
            windows.survive[base + f] = r
            windows.launched[base + f] = q
            f += 1
            windows.filled[a] = f
            if f - 1 < checks {
                let v = s0 * r
                if v < hi { return v >= lo ? nil : ended(after: min(f - 1, n)) }
            }
        }
        // Entries 0…n kept and every check passed: the whole hours are in,
        // then the last part-hour (if any) as one step.
        guard rest.microseconds > 0 else { return ended(after: n) }
        let sum = p0 + s0 * windows.launched[base + n]
        if stale * sum >= yes { return true }
        // It adds left · (1 − e^{−x}) · l/(l+u) ≤ left · min(x, 1) · l/(l+u).
        let l = baseRate(t + .hours(Int64(n))), left = s0 * windows.survive[base + n]
        guard l + u > 0 else { return stale * sum < no ? false : nil }
        let x = (l + u) * rest.inHours, last = l / (l + u)
        if stale * (sum + left * min(x, 1) * last) < no { return false }
        let full = sum + left * -expm1(-x) * last
        if stale * full >= yes { return true }
        if stale * full < no { return false }
        return nil
    }
}
