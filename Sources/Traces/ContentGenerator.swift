// Server-side content updates: what freshness is measured against.
// Per-app rates and rhythms: `TraceApp`; global knobs: `ContentParameters`.
import Foundation
import SimCore
import Stats

/// Draws, for each app, the times the server publishes an update.
///
/// A Poisson process with rate `contentUpdatesPerHour · rateScale`, optionally
/// modulated over the day: λ(h) = λ · (1 + a · cos(2π (h − peak) / 24)), whose
/// daily mean is still λ. Drawn exactly by thinning (Lewis and Shedler 1979):
/// candidates at the peak rate λ(1 + a), each kept with probability λ(h)/λ(1 + a).
public struct ContentGenerator: Sendable {
    public let parameters: ContentParameters
    public let apps: [TraceApp]

    public init(parameters: ContentParameters, apps: [TraceApp]) {
        self.parameters = parameters
        self.apps = apps
    }

    public func generate(days: Int, using rng: RandomStream) -> [[SimTime]] {
        let horizonHours = Double(days) * 24
        let hour = Double(SimDuration.microsecondsPerHour)
        let horizon = Int64(days) * SimDuration.microsecondsPerDay
        return apps.map { app in
            let rate = app.contentUpdatesPerHour * parameters.rateScale
            guard rate > 0 else { return [] }
            let a = parameters.dailyRhythm ? app.contentRhythmAmplitude : 0
            let peakRate = rate * (1 + a)
            var times: [SimTime] = []
            times.reserveCapacity(Int(rate * horizonHours * 1.1) + 4)
            var t = 0.0
            while true {
                t += rng.exponential(mean: 1 / peakRate)
                if t >= horizonHours { break }
                if a > 0 {
                    let h = t - 24 * (t / 24).rounded(.down)
                    let keep = (1 + a * cos(2 * Double.pi * (h - app.contentPeakHour) / 24)) / (1 + a)
                    if rng.uniform() >= keep { continue }
                }
                let us = min(Int64(t * hour), horizon - 1)
                // Rounding can tie two updates; times stay sorted (non-decreasing).
                times.append(SimTime(microseconds: us))
            }
            return times
        }
    }
}
