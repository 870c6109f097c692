// What the model-aware bound knows about one user: the generator's expected
// launch rates and content rates, not the realised future. Filled by the
// runner for policies that ask for it (`PolicyTraits.needsModelKnowledge`).
import SimCore
import Stats

/// A user's launch intensity per app and time, and each app's content rate.
public struct UsageModelKnowledge: Sendable, Hashable {
    /// Expected launches per hour, per app, for the 24 hours of a weekday
    /// (index 0–23) then of a weekend day (24–47).
    public var launchesPerHour: [[Double]]
    /// Expected content updates per hour, per app, for each hour of the day.
    public var updatesPerHour: [[Double]]

    public init(launchesPerHour: [[Double]], updatesPerHour: [[Double]]) {
        self.launchesPerHour = launchesPerHour
        self.updatesPerHour = updatesPerHour
    }

    /// Expected launches of `app` per hour at `t`.
    public func launchRate(app: Int, at t: SimTime) -> Double {
        guard app < launchesPerHour.count else { return 0 }
        let h = Int(t.timeOfDay.microseconds / SimDuration.microsecondsPerHour) % 24
        return launchesPerHour[app][(t.isWeekend ? 24 : 0) + h]
    }

    /// Expected content updates of `app` per hour at `t`.
    public func updateRate(app: Int, at t: SimTime) -> Double {
        guard app < updatesPerHour.count else { return 0 }
        return updatesPerHour[app][Int(t.timeOfDay.microseconds / SimDuration.microsecondsPerHour) % 24]
    }
}

extension PopulationGenerator {
    /// Realisations averaged for the launch intensity (each of `days` days).
    public static let modelRealisations = 8

    /// User `index`'s model: the user's own constants (routines,
    /// popularity, installed apps: the first draws of the user's "usage"
    /// stream, the same as in the trace) with the launch rates averaged over
    /// `modelRealisations` independent realisations of the days (streams
    /// "usage-model-0", ...), so they are the model's intensity up to Monte
    /// Carlo error and carry nothing of the realised future. Content rates
    /// are exact (`ContentGenerator.hourlyMeans`; flat for scheduled feeds).
    public func modelKnowledge(user index: Int) -> UsageModelKnowledge {
        let usage = UsageGenerator(parameters: parameters.usage, structure: parameters.structure, apps: parameters.apps)
        let profile = usage.profile(using: RandomStream(seed: seed, user: index, stream: Self.streamNames.usage))
        let apps = parameters.apps.count
        var counts = [[Double]](repeating: [Double](repeating: 0, count: 48), count: apps)
        for k in 0..<Self.modelRealisations {
            let sessions = usage.realise(profile, days: days,
                                         using: RandomStream(seed: seed, user: index, stream: "usage-model-\(k)"))
            for s in sessions {
                let h = Int(s.start.timeOfDay.microseconds / SimDuration.microsecondsPerHour) % 24
                counts[s.app][(s.start.isWeekend ? 24 : 0) + h] += 1
            }
        }
        let weekendDays = (0..<days).filter { SimTime(day: $0).isWeekend }.count
        let perBin = (weekday: Double(max(days - weekendDays, 1) * Self.modelRealisations),
                      weekend: Double(max(weekendDays, 1) * Self.modelRealisations))
        let launches = counts.map { row in row.enumerated().map { $1 / ($0 < 24 ? perBin.weekday : perBin.weekend) } }
        let content = ContentGenerator(parameters: parameters.content, apps: parameters.apps)
        let updates = zip(parameters.apps, content.hourlyMeans).map { app, means in
            app.contentPattern == .scheduled
                ? [Double](repeating: max(0, app.contentUpdatesPerHour * parameters.content.rateScale), count: 24)
                : means
        }
        return UsageModelKnowledge(launchesPerHour: launches, updatesPerHour: updates)
    }
}
