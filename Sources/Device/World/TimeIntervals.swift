import Foundation
import SimCore

/// Sorted, disjoint [start, end) intervals of world time, with the
/// questions the simulator and the oracles ask of them: the world's
/// failure bursts (each app's backend outages, the device's dead zones).
public struct TimeIntervals: Sendable, Hashable {
    public let starts: [SimTime]
    public let ends: [SimTime]

    public init(starts: [SimTime], ends: [SimTime]) {
        precondition(starts.count == ends.count, "one end per start")
        self.starts = starts
        self.ends = ends
    }

    public static let none = TimeIntervals(starts: [], ends: [])

    /// The end of the interval holding `t`, or nil if none does.
    ///
    /// - Complexity: O(log n), a binary search for the last start ≤ `t`.
    @inline(__always)
    public func end(ofIntervalHolding t: SimTime) -> SimTime? {
        guard !starts.isEmpty else { return nil }
        var lo = 0, hi = starts.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if starts[mid] <= t { lo = mid + 1 } else { hi = mid }
        }
        return lo > 0 && t < ends[lo - 1] ? ends[lo - 1] : nil
    }

    /// Whether an interval holds `t`.
    @inline(__always)
    public func contains(_ t: SimTime) -> Bool { end(ofIntervalHolding: t) != nil }

    /// The time covered before `horizon` (for tests and docs).
    func total(before horizon: SimTime) -> SimDuration {
        var sum = SimDuration.zero
        for (s, e) in zip(starts, ends) where s < horizon { sum = sum + (min(e, horizon) - s) }
        return sum
    }

    /// An alternating renewal process from time zero to `horizon`: gaps
    /// exponential with mean 1/`perDay` days, then an interval log-normal
    /// with median `medianDuration` and shape `durationSigma`, at least 1 s
    /// and at most 7 days (or `maxDuration` when shorter; the next gap
    /// starts at the cut end). The k-th gap and the k-th duration come from the
    /// uniforms `gapUniform(k)` and `durationUniform(k)` (inverse CDFs), so
    /// the caller decides which keyed random stream each uses and the
    /// intervals are the same under every policy.
    static func alternatingRenewal(perDay: Double, medianDuration: SimDuration, durationSigma: Double,
                                   maxDuration: SimDuration? = nil, horizon: SimTime, gapUniform: (UInt64) -> Double,
                                   durationUniform: (UInt64) -> Double) -> TimeIntervals {
        var starts: [SimTime] = [], ends: [SimTime] = []
        let meanGapSeconds = 86_400 / perDay
        var t = SimTime.zero
        var k: UInt64 = 0
        while true {
            t = t + .seconds(-meanGapSeconds * Foundation.log1p(-gapUniform(k)))
            if t >= horizon { break }
            let z = standardNormalQuantile(durationUniform(k))
            let seconds = min(medianDuration.seconds * Foundation.exp(durationSigma * z), 7 * 86_400,
                              maxDuration?.seconds ?? .infinity)
            starts.append(t)
            t = t + .seconds(max(1, seconds))
            ends.append(t)
            k += 1
        }
        return TimeIntervals(starts: starts, ends: ends)
    }
}
