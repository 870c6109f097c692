// Wi-Fi, cellular and offline stretches.
// Parameters, units, defaults and sources: `NetworkParameters`.
import SimCore
import Stats

/// Draws a user's connectivity, tiling [0, horizon).
///
/// Each day is painted in layers, later layers over earlier ones: home
/// (Wi-Fi if the user has it, else cellular) all day; on weekdays, for users
/// who go to work, the commute (cellular) and work (Wi-Fi or cellular);
/// evening or weekend outings (cellular); offline stretches. Days are then
/// joined and equal neighbours merged.
public struct NetworkGenerator: Sendable {
    public let parameters: NetworkParameters

    public init(parameters: NetworkParameters) { self.parameters = parameters }

    private struct Segment { var start: Int64; var end: Int64; var kind: NetworkKind }

    /// Paints [s, e) with `kind` over sorted segments that tile a day.
    private static func paint(_ segs: inout [Segment], _ s: Int64, _ e: Int64, _ kind: NetworkKind) {
        guard e > s else { return }
        var out: [Segment] = []
        out.reserveCapacity(segs.count + 2)
        for g in segs where g.start < s { out.append(Segment(start: g.start, end: min(g.end, s), kind: g.kind)) }
        out.append(Segment(start: s, end: e, kind: kind))
        for g in segs where g.end > e { out.append(Segment(start: max(g.start, e), end: g.end, kind: g.kind)) }
        segs = out
    }

    public func generate(days: Int, using rng: RandomStream) -> [NetworkInterval] {
        let p = parameters
        let hour = Double(SimDuration.microsecondsPerHour)
        let dayLength = SimDuration.microsecondsPerDay
        func t(_ h: Double) -> Int64 { min(max(Int64((h * hour).rounded()), 0), dayLength) }

        let homeKind: NetworkKind = rng.uniform() < p.homeWifiProbability ? .wifi : .cellular
        let worksAway = rng.uniform() < p.worksAwayProbability
        let workKind: NetworkKind = rng.uniform() < p.workWifiProbability ? .wifi : .cellular
        let leaveHome = p.leaveHomeHourMean + rng.normal(mean: 0, sd: p.leaveHomeHourUserSD)
        let workHours = min(max(p.workHoursMean + rng.normal(mean: 0, sd: p.workHoursUserSD), 2), 12)
        let commute = rng.uniform(p.commuteMinutesMin, max(p.commuteMinutesMin, p.commuteMinutesMax)) / 60

        var result: [NetworkInterval] = []
        result.reserveCapacity(days * 6)
        for day in 0..<days {
            var segs = [Segment(start: 0, end: dayLength, kind: homeKind)]
            let weekend = SimTime(day: day).isWeekend
            if !weekend {
                var backHome = 0.0
                if worksAway {
                    let leave = leaveHome + rng.normal(mean: 0, sd: p.leaveHomeHourDaySD)
                    backHome = leave + 2 * commute + workHours
                    Self.paint(&segs, t(leave), t(backHome), .cellular)
                    Self.paint(&segs, t(leave + commute), t(leave + commute + workHours), workKind)
                }
                if rng.uniform() < p.eveningOutingProbability {
                    let start = max(rng.uniform(18, 21), backHome)
                    Self.paint(&segs, t(start), t(start + rng.exponential(mean: p.outingMeanHours)), .cellular)
                }
            } else {
                for _ in 0..<rng.poisson(mean: p.weekendOutingsMean) {
                    let start = rng.uniform(10, 20)
                    Self.paint(&segs, t(start), t(start + rng.exponential(mean: p.outingMeanHours)), .cellular)
                }
            }
            for _ in 0..<rng.poisson(mean: p.offlinePerDayMean) {
                let start = rng.uniform(0, 24)
                let minutes = min(max(rng.exponential(mean: p.offlineMeanMinutes), p.offlineMinMinutes), p.offlineMaxMinutes)
                Self.paint(&segs, t(start), t(start + minutes / 60), .offline)
            }
            let base = Int64(day) * dayLength
            for g in segs where g.end > g.start {
                if let last = result.last, last.kind == g.kind {
                    result[result.count - 1].end = SimTime(microseconds: base + g.end)
                } else {
                    result.append(NetworkInterval(start: SimTime(microseconds: base + g.start),
                                                  end: SimTime(microseconds: base + g.end), kind: g.kind))
                }
            }
        }
        return result
    }
}
