// Foreground sessions: when the user opens which app, and for how long.
// Parameters, units, defaults and sources: `UsageParameters`.
import Foundation
import SimCore
import Stats

/// What the usage generator draws for one user.
public struct UserUsage: Sendable, Hashable {
    public var meanSessionsPerDay: Double
    public var intensity: IntensityClass
    /// Per app index: the user's own habit time (hours after midnight), or
    /// nil when the user has no habit for that app.
    public var habitHours: [Double?]
    public var sessions: [Session]
}

/// Draws a user's sessions.
///
/// Arrivals are a non-homogeneous Poisson process with a piecewise-constant
/// (hourly) rate: each day's count is Poisson, and each arrival's hour is
/// drawn from that day's hourly weights (weekday or weekend), uniform within
/// the hour — the same law, drawn in O(count). On top come habit sessions:
/// one a day per adopted habit app, anchored at the user's habit time with
/// probability `habitRegularity`, otherwise placed by the rhythm. The
/// habit sessions are part of the user's daily mean, not extra.
public struct UsageGenerator: Sendable {
    public let parameters: UsageParameters
    public let apps: [TraceApp]
    /// Normalised cumulative hourly weights (24 entries, last = 1).
    private let weekdayCumulative: [Double]
    private let weekendCumulative: [Double]

    public init(parameters: UsageParameters, apps: [TraceApp]) {
        self.parameters = parameters
        self.apps = apps
        weekdayCumulative = Self.cumulative(parameters.weekdayHourlyWeights)
        weekendCumulative = Self.cumulative(parameters.weekendHourlyWeights)
    }

    static func cumulative(_ w: [Double]) -> [Double] {
        let total = w.reduce(0, +)
        var acc = 0.0
        var out = w.map { acc += $0; return total > 0 ? acc / total : 0 }
        if !out.isEmpty { out[out.count - 1] = 1 }
        return out
    }

    /// The intensity class of a mean of `sessionsPerDay`.
    public func intensityClass(sessionsPerDay: Double) -> IntensityClass {
        if sessionsPerDay < parameters.lightBelowSessionsPerDay { return .light }
        if sessionsPerDay > parameters.heavyAboveSessionsPerDay { return .heavy }
        return .moderate
    }

    /// One session length in seconds: exponential body or shifted-Pareto tail,
    /// times the user's scale, clamped.
    public func sessionLengthSeconds(userScale: Double, using rng: RandomStream) -> Double {
        let p = parameters
        let raw: Double
        if rng.uniform() < p.tailProbability {
            // Lomax (Pareto II) = Pareto I minus its scale, shifted to the location.
            raw = p.tailLocationSeconds + rng.pareto(shape: p.tailShape, scale: p.tailScaleSeconds) - p.tailScaleSeconds
        } else {
            raw = rng.exponential(mean: p.bodyMeanSeconds)
        }
        return min(max(raw * userScale, p.minSessionSeconds), p.maxSessionSeconds)
    }

    /// The user's sessions over `days` days.
    public func generate(days: Int, using rng: RandomStream) -> UserUsage {
        let p = parameters
        let hour = Double(SimDuration.microsecondsPerHour)
        // Per-user constants first, in a fixed order.
        var mean = p.sessionsPerDaySigma > 0
            ? rng.lognormal(mu: log(p.sessionsPerDayMedian), sigma: p.sessionsPerDaySigma)
            : p.sessionsPerDayMedian
        mean = min(max(mean, p.sessionsPerDayMin), p.sessionsPerDayMax)
        let lengthScale = p.userLengthSigma > 0 ? rng.lognormal(mu: 0, sigma: p.userLengthSigma) : 1
        var popularity = [Double](repeating: 0, count: apps.count)
        var total = 0.0
        for (i, app) in apps.enumerated() {
            total += app.basePopularity * (p.popularitySigma > 0 ? exp(rng.normal(mean: 0, sd: p.popularitySigma)) : 1)
            popularity[i] = total
        }
        var habitHours = [Double?](repeating: nil, count: apps.count)
        for (i, app) in apps.enumerated() {
            guard let h = app.habitHour else { continue }
            let adopts = rng.uniform() < p.habitAdoptionProbability
            let own = h + rng.normal(mean: 0, sd: p.habitUserHourSD)
            if adopts { habitHours[i] = own - 24 * (own / 24).rounded(.down) }
        }
        let habitCount = Double(habitHours.lazy.filter { $0 != nil }.count)

        // (start, length) in microseconds, app.
        var drawn: [(start: Int64, length: Int64, app: Int)] = []
        drawn.reserveCapacity(Int(mean * Double(days) * 1.2) + 16)
        func length() -> Int64 { Int64((sessionLengthSeconds(userScale: lengthScale, using: rng) * 1e6).rounded()) }
        func rhythmTime(day: Int, weekend: Bool) -> Int64 {
            let cum = weekend ? weekendCumulative : weekdayCumulative
            let u = rng.uniform()
            var h = 0
            while h < 23 && cum[h] <= u { h += 1 }
            return Int64(day) * SimDuration.microsecondsPerDay + Int64((Double(h) + rng.uniform()) * hour)
        }
        func chooseApp() -> Int {
            let u = rng.uniform() * total
            var i = 0
            while i < apps.count - 1 && popularity[i] <= u { i += 1 }
            return i
        }

        for day in 0..<days {
            let weekend = SimTime(day: day).isWeekend
            let dayMean = mean * (weekend ? p.weekendActivityFactor : 1)
            let habitProbability = weekend ? p.habitWeekendProbability : p.habitWeekdayProbability
            let randomMean = max(0, dayMean - habitCount * habitProbability)
            let n = rng.poisson(mean: randomMean)
            for _ in 0..<n {
                let start = rhythmTime(day: day, weekend: weekend)
                drawn.append((start, length(), chooseApp()))
            }
            for (app, habit) in habitHours.enumerated() {
                guard let habit else { continue }
                guard rng.uniform() < habitProbability else { continue }
                let start: Int64
                if rng.uniform() < p.habitRegularity {
                    var h = habit + rng.normal(mean: 0, sd: p.habitJitterMinutes / 60)
                    h -= 24 * (h / 24).rounded(.down)  // stay inside this day
                    start = Int64(day) * SimDuration.microsecondsPerDay + Int64(h * hour)
                } else {
                    start = rhythmTime(day: day, weekend: weekend)
                }
                drawn.append((start, length(), app))
            }
        }

        // Sort, then push each session past the previous one's end plus the
        // gap, so sessions never overlap; lengths are kept (they carry the
        // calibration), starts move. Sessions pushed past the horizon are cut
        // at the horizon, or dropped when nothing remains.
        drawn.sort { $0.start != $1.start ? $0.start < $1.start : $0.app < $1.app }
        let horizon = Int64(days) * SimDuration.microsecondsPerDay
        let gap = Int64((p.minGapSeconds * 1e6).rounded())
        var sessions: [Session] = []
        sessions.reserveCapacity(drawn.count)
        var free: Int64 = 0
        for d in drawn {
            let start = max(d.start, free)
            guard start < horizon else { break }
            let end = min(start + max(d.length, 1), horizon)
            sessions.append(Session(start: SimTime(microseconds: start), end: SimTime(microseconds: end), app: d.app))
            free = end + gap
        }
        return UserUsage(meanSessionsPerDay: mean, intensity: intensityClass(sessionsPerDay: mean),
                         habitHours: habitHours, sessions: sessions)
    }
}
