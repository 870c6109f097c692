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
    mutating func ensure(apps: Int, horizon: SimDuration) {
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

    /// The rule's answer to `stale · p ≥ bar` (bar > 0), where the sum
    /// stands at `p` with `survive` left at the hour boundary `t`, no
    /// short-lived term on from there, `whole` whole hours to go and then
    /// a last part-hour of `rest` (whose launch rate `lastRate` gives);
    /// nil where the kept sums are too close to call. The app's window
    /// must start at `t`.
    func answer(_ bar: Double, stale: Double, app a: Int, p: Double, survive s0: Double, whole n: Int,
                rest: SimDuration, updatesPerHour u: Double, lastRate: () -> Double) -> Bool? {
        let base = a * stride
        let hi = 1e-4 * (1 + Self.margin), lo = 1e-4 / (1 + Self.margin)
        // The rule asks `survive >= 1e-4` before each whole hour and before
        // the last part: the first of those checks that fails, by binary
        // search (R is non-increasing, and so is S · R). The window is
        // filled to j = n or to an R_j below 1e-4, which fails.
        let checks = rest.microseconds > 0 ? n + 1 : n
        var low = 0, high = min(checks, filled[a])
        while low < high {
            let mid = (low + high) / 2
            if s0 * survive[base + mid] >= hi { low = mid + 1 } else { high = mid }
        }
        // `low`: the first check not surely passed (or `checks`: all pass).
        if low < checks && s0 * survive[base + low] >= lo { return nil }
        let steps = min(low, n)
        let sum = p + s0 * launched[base + steps]
        let yes = bar * (1 + Self.margin), no = bar / (1 + Self.margin)
        guard low == checks && rest.microseconds > 0 else {
            // No last part-hour: the sum is complete.
            if stale * sum >= yes { return true }
            if stale * sum < no { return false }
            return nil
        }
        if stale * sum >= yes { return true }
        // The last part-hour adds left · (1 − e^{−x}) · l/(l+u) ≤ left · min(x, 1) · l/(l+u).
        let l = lastRate(), left = s0 * survive[base + n]
        guard l + u > 0 else { return stale * sum < no ? false : nil }
        let x = (l + u) * rest.inHours, share = l / (l + u)
        if stale * (sum + left * min(x, 1) * share) < no { return false }
        let full = sum + left * -expm1(-x) * share
        if stale * full >= yes { return true }
        if stale * full < no { return false }
        return nil
    }
}

extension LaunchHourTerms {
    /// The app's window from the hour boundary `t`, summed from its kept
    /// whole-hour terms until R_j < 1e-4 (after which the rule has
    /// stopped, as S ≤ 1) or the horizon's whole hours are in.
    mutating func fillWindow(app a: Int, from t: SimTime, updatesPerHour u: Double, baseRate: (SimTime) -> Double) {
        let base = a * windows.stride
        var s = 1.0, p = 0.0, j = 0
        windows.survive[base] = 1
        windows.launched[base] = 0
        var hourOfDay = Int(t.timeOfDay.microseconds / LaunchWindows.hour), day = t.day
        var weekend = t.isWeekend
        while j + 1 < windows.stride && s >= 1e-4 {
            let at = t + .hours(Int64(j))
            let (l, happens) = term(app: a, bin: (weekend ? 24 : 0) + hourOfDay) { baseRate(at) }
            if l + u > 0 {
                p += s * happens * l / (l + u)
                s *= 1 - happens
            }
            j += 1
            windows.survive[base + j] = s
            windows.launched[base + j] = p
            hourOfDay += 1
            if hourOfDay == 24 { hourOfDay = 0; day += 1; weekend = SimTime(day: day).isWeekend }
        }
        windows.filled[a] = j + 1
        windows.start[a] = t.microseconds / LaunchWindows.hour
    }
}
