// Server-side content updates: what freshness is measured against.
// Per-app rates and rhythms: `TraceApp`; global knobs: `ContentParameters`.
import Foundation
import SimCore
import Stats

/// Draws, for each app, the times the server publishes an update.
///
/// A Poisson process with rate λ = `contentUpdatesPerHour · rateScale`,
/// optionally modulated over the day: λ(h) = λ · (1 + a · cos(2π (h − peak) / 24)),
/// whose daily mean is still λ. It is drawn with a rate that is constant
/// inside each hour and equal to the hour's exact mean (the integral of λ(h)
/// over the hour), so the count in every hour has exactly the right Poisson
/// law; only the shape of the rhythm within an hour is flattened (the
/// cosine moves by at most 2π/24 ≈ 26 % of its amplitude across one hour).
/// One exponential variate per update: about 3 times fewer variates than
/// thinning, and content updates are most of the cost of a user.
///
/// That is the `poisson` pattern; `bursty` feeds (messaging, mail, news)
/// place bursts that way, and `scheduled` feeds (weather) publish on a
/// fixed period (`ContentPattern`).
public struct ContentGenerator: Sendable {
    public let parameters: ContentParameters
    public let apps: [TraceApp]
    /// Per app: the expected number of updates in each hour of the day.
    public let hourlyMeans: [[Double]]

    public init(parameters: ContentParameters, apps: [TraceApp]) {
        self.parameters = parameters
        self.apps = apps
        hourlyMeans = apps.map { app in
            let rate = max(0, app.contentUpdatesPerHour * parameters.rateScale)
            let a = parameters.dailyRhythm ? app.contentRhythmAmplitude : 0
            let k = 2 * Double.pi / 24
            return (0..<24).map { h in
                // ∫_h^{h+1} cos(k (x − peak)) dx = (sin(k (h + 1 − peak)) − sin(k (h − peak))) / k
                let integral = (sin(k * (Double(h) + 1 - app.contentPeakHour)) - sin(k * (Double(h) - app.contentPeakHour))) / k
                return max(0, rate * (1 + a * integral))
            }
        }
    }

    public func generate(days: Int, using rng: RandomStream) -> [[SimTime]] {
        zip(apps, hourlyMeans).map { app, means in
            switch app.contentPattern {
            case .poisson:
                return Self.poisson(means: means, days: days, using: rng)
            case .bursty:
                return bursty(app, means: means, days: days, using: rng)
            case .scheduled:
                return scheduled(app, days: days, using: rng)
            }
        }
    }

    /// A Poisson process with the given expected counts per hour of the day.
    static func poisson(means: [Double], days: Int, using rng: RandomStream) -> [SimTime] {
        let hourLength = Double(SimDuration.microsecondsPerHour)
        let hours = days * 24
        let daily = means.reduce(0, +)
        guard daily > 0 else { return [] }
        var times: [SimTime] = []
        times.reserveCapacity(Int(daily * Double(days) * 1.1) + 4)
        // Time change: a unit-rate Poisson process in "expected-count
        // time" Λ, mapped back through Λ(t), which is linear inside each
        // hour. One exponential per update, no sorting.
        var next = rng.exponential(mean: 1)  // Λ of the next update
        var before = 0.0                      // Λ at the start of hour `h`
        var h = 0
        while h < hours {
            let m = means[h % 24]
            if next < before + m {
                let offset = Int64((next - before) / m * hourLength)  // < 1 h
                times.append(SimTime(microseconds: Int64(h) * SimDuration.microsecondsPerHour + offset))
                next += rng.exponential(mean: 1)
            } else {
                before += m
                h += 1
            }
        }
        return times
    }

    /// Bursts: burst starts are Poisson with the rate divided by the mean
    /// burst size (so the mean rate is the app's); each burst has a
    /// geometric number of updates (mean `contentBurstMeanSize`) spaced by
    /// exponential gaps (mean `contentBurstGapMinutes`). Updates pushed past
    /// the horizon are dropped.
    func bursty(_ app: TraceApp, means: [Double], days: Int, using rng: RandomStream) -> [SimTime] {
        let size = max(1, app.contentBurstMeanSize)
        let starts = Self.poisson(means: means.map { $0 / size }, days: days, using: rng)
        let horizon = Int64(days) * SimDuration.microsecondsPerDay
        let gap = app.contentBurstGapMinutes * 60e6
        let more = 1 - 1 / size
        var times: [SimTime] = []
        times.reserveCapacity(Int(Double(starts.count) * size) + 4)
        for start in starts {
            var t = start.microseconds
            times.append(start)
            while rng.uniform() < more {
                t += Int64(rng.exponential(mean: gap))
                if t < horizon { times.append(SimTime(microseconds: t)) }
            }
        }
        times.sort()
        return times
    }

    /// A schedule: every 1/rate hours from a per-user phase, each update
    /// ± a normal jitter of 2 minutes (assumption), inside [0, horizon).
    func scheduled(_ app: TraceApp, days: Int, using rng: RandomStream) -> [SimTime] {
        let rate = app.contentUpdatesPerHour * parameters.rateScale
        guard rate > 0 else { return [] }
        let period = Double(SimDuration.microsecondsPerHour) / rate
        let horizon = Double(Int64(days) * SimDuration.microsecondsPerDay)
        var t = rng.uniform() * period
        var times: [SimTime] = []
        while t < horizon {
            let jittered = t + rng.normal(mean: 0, sd: 120e6)
            if jittered >= 0 && jittered < horizon { times.append(SimTime(microseconds: Int64(jittered))) }
            t += period
        }
        times.sort()
        return times
    }
}
