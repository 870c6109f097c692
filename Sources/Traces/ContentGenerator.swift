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
        let hourLength = Double(SimDuration.microsecondsPerHour)
        let hours = days * 24
        return hourlyMeans.map { means in
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
    }
}
