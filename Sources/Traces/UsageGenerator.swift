// Foreground sessions: when the user opens which app, and for how long.
// Parameters, units, defaults and sources: `UsageParameters` (rhythm,
// session lengths, habits) and `UsageStructureParameters` (episodes,
// transitions, routines); the app traits in `TraceApp`.
import Foundation
import SimCore
import Stats

/// What the usage generator draws for one user.
public struct UserUsage: Sendable, Hashable {
    public var meanSessionsPerDay: Double
    public var intensity: IntensityClass
    /// Per app index: the user's first routine time (hours after midnight),
    /// or nil when the user has no routine for that app.
    public var habitHours: [Double?]
    /// Per app index: the user has the app installed.
    public var installed: [Bool]
    /// Per app index: the user's routine strength for the app, [0, 1].
    public var routineStrength: [Double]
    public var sessions: [Session]
}

/// The per-user constants of the usage model, drawn first from the user's
/// "usage" stream; `UsageGenerator.realise` then draws the days from them.
public struct UsageProfile: Sendable, Hashable {
    public var meanSessionsPerDay: Double
    public var lengthScale: Double
    public var installed: [Bool]
    /// Relative popularity per app (0 for an app not installed).
    public var weight: [Double]
    /// Routine strength per app, [0, 1] (0: no routine).
    public var routineStrength: [Double]
    /// Routine times of day per app, hours in [0, 24).
    public var routineSlots: [[Double]]
    /// Per app: the app this user tends to open after it.
    public var successor: [Int]
}

/// Draws a user's sessions.
///
/// Usage comes in **episodes**: the user picks up the phone and runs a
/// burst of sessions (geometric count, mean `sessionsPerEpisodeMean`),
/// separated by short screen-off gaps (exponential, mean
/// `episodeGapMeanSeconds`). The next app of an episode is the same app
/// again (`repeatProbability`), the user's own successor of the current app
/// (`successorProbability`), or drawn by popularity and time of day. Episodes
/// start either
/// - as **routines**: each app the user has a routine for has 1…
///   `routineSlotsMax` times of day; on each day a slot plays out with
///   probability strength × the weekday/weekend habit probability, at the
///   slot time ± `habitJitterMinutes`, opening that app (and, with
///   probability 1 − 1/`routineEpisodesPerSlot` each, further episodes near
///   the same time), or
/// - at random: a non-homogeneous Poisson process with the hourly
///   weights, whose daily mean makes up the rest of the user's sessions.
/// Bursts within episodes plus the gaps between episodes give heavy-tailed,
/// bursty same-app gaps; routines give app-specific daily habits whose
/// strength varies across users (uniform in [min, max]) and apps
/// (`routineAffinity`). Any episode may be followed by a revisit of its
/// first app a few minutes later (`revisitProbability`, chained).
public struct UsageGenerator: Sendable {
    public let parameters: UsageParameters
    public let structure: UsageStructureParameters
    public let apps: [TraceApp]
    /// Normalised cumulative hourly weights (24 entries, last = 1).
    private let weekdayCumulative: [Double]
    private let weekendCumulative: [Double]

    public init(parameters: UsageParameters, structure: UsageStructureParameters = .default, apps: [TraceApp]) {
        self.parameters = parameters
        self.structure = structure
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

    /// An hour of the day drawn from the hourly weights, uniform within it.
    private func rhythmHour(weekend: Bool, using rng: RandomStream) -> Double {
        let cum = weekend ? weekendCumulative : weekdayCumulative
        let u = rng.uniform()
        var h = 0
        while h < 23 && cum[h] <= u { h += 1 }
        return Double(h) + rng.uniform()
    }

    /// The user's constants, in a fixed order of draws.
    public func profile(using rng: RandomStream) -> UsageProfile {
        let p = parameters, s = structure
        var mean = p.sessionsPerDaySigma > 0
            ? rng.lognormal(mu: log(p.sessionsPerDayMedian), sigma: p.sessionsPerDaySigma)
            : p.sessionsPerDayMedian
        mean = min(max(mean, p.sessionsPerDayMin), p.sessionsPerDayMax)
        let lengthScale = p.userLengthSigma > 0 ? rng.lognormal(mu: 0, sigma: p.userLengthSigma) : 1
        var installed = apps.map { rng.uniform() < $0.installProbability }
        if !installed.contains(true), let best = apps.indices.max(by: {
            apps[$0].basePopularity * apps[$0].installProbability < apps[$1].basePopularity * apps[$1].installProbability
        }) { installed[best] = true }
        var weight = [Double](repeating: 0, count: apps.count)
        for (i, app) in apps.enumerated() {
            let spread = p.popularitySigma > 0 ? exp(rng.normal(mean: 0, sd: p.popularitySigma)) : 1
            if installed[i] { weight[i] = app.basePopularity * spread }
        }
        let userStrength = rng.uniform(s.routineStrengthMin, s.routineStrengthMax)
        var strength = [Double](repeating: 0, count: apps.count)
        var slots = [[Double]](repeating: [], count: apps.count)
        for (i, app) in apps.enumerated() {
            let adopts = rng.uniform() < p.habitAdoptionProbability
            let count = 1 + min(Int(rng.uniform() * Double(s.routineSlotsMax)), s.routineSlotsMax - 1)
            var hours: [Double] = []
            for k in 0..<count {
                // The first slot near the app's habit hour (news in the morning),
                // the others where the user is active anyway.
                let base = k == 0 ? (app.habitHour ?? rhythmHour(weekend: false, using: rng)) : rhythmHour(weekend: false, using: rng)
                let h = base + rng.normal(mean: 0, sd: p.habitUserHourSD)
                hours.append(h - 24 * (h / 24).rounded(.down))
            }
            guard installed[i], adopts else { continue }
            strength[i] = min(1, max(0, userStrength * app.routineAffinity * p.habitRegularity))
            if strength[i] > 0 { slots[i] = hours }
        }
        let total = weight.reduce(0, +)
        var successor = [Int](repeating: 0, count: apps.count)
        for i in apps.indices {
            // Drawn by popularity among the other installed apps (the app
            // itself only when it is the only one).
            let others = total - weight[i]
            var u = rng.uniform() * (others > 0 ? others : total)
            var next = i
            for j in apps.indices where weight[j] > 0 && !(j == i && others > 0) {
                next = j
                if u < weight[j] { break }
                u -= weight[j]
            }
            successor[i] = next
        }
        return UsageProfile(meanSessionsPerDay: mean, lengthScale: lengthScale, installed: installed, weight: weight,
                            routineStrength: strength, routineSlots: slots, successor: successor)
    }

    /// The user's sessions over `days` days.
    public func generate(days: Int, using rng: RandomStream) -> UserUsage {
        let profile = profile(using: rng)
        let sessions = realise(profile, days: days, using: rng)
        return UserUsage(meanSessionsPerDay: profile.meanSessionsPerDay,
                         intensity: intensityClass(sessionsPerDay: profile.meanSessionsPerDay),
                         habitHours: profile.routineSlots.map(\.first), installed: profile.installed,
                         routineStrength: profile.routineStrength, sessions: sessions)
    }

    /// Per hour of the day, cumulative app weights with each app's
    /// time-of-day preference (`usageRhythmAmplitude` around `habitHour`).
    /// (Apps are read by index, field by field: a whole `TraceApp` copied
    /// per app and hour was most of `PopulationGenerator.modelKnowledge`'s
    /// cost, which calls this once per realisation.)
    private func hourlyAppCumulative(_ weight: [Double]) -> [[Double]] {
        (0..<24).map { h in
            var acc = 0.0
            return apps.indices.map { i in
                var w = weight[i]
                if let peak = apps[i].habitHour {
                    w *= 1 + apps[i].usageRhythmAmplitude * cos(2 * Double.pi * (Double(h) + 0.5 - peak) / 24)
                }
                acc += max(0, w)
                return acc
            }
        }
    }

    /// Draws `profile`'s sessions over `days` days from `rng`. Any stream
    /// gives a valid realisation of the same user (the model-aware bound
    /// averages several).
    public func realise(_ profile: UsageProfile, days: Int, using rng: RandomStream) -> [Session] {
        let p = parameters, s = structure
        let hour = Double(SimDuration.microsecondsPerHour)
        let byHour = hourlyAppCumulative(profile.weight)
        let continueProbability = 1 - 1 / s.sessionsPerEpisodeMean
        // An episode with its chain of revisits has this many sessions on average.
        let sessionsPerChain = s.sessionsPerEpisodeMean / (1 - s.revisitProbability)
        let repeatSlot = 1 - 1 / s.routineEpisodesPerSlot
        // Expected routine episodes a day, so that routines are part of the
        // user's daily mean, not extra.
        func routineEpisodes(_ dayProbability: Double) -> Double {
            zip(profile.routineStrength, profile.routineSlots).reduce(0) { acc, x in
                acc + Double(x.1.count) * min(1, x.0 * dayProbability) * s.routineEpisodesPerSlot
            }
        }
        // Routines may take at most `routineShareMax` of the day's episodes;
        // beyond that every slot's probability is scaled down.
        func scale(_ routine: Double, dayMean: Double) -> Double {
            routine > 0 ? min(1, s.routineShareMax * dayMean / sessionsPerChain / routine) : 1
        }
        let weekdayScale = scale(routineEpisodes(p.habitWeekdayProbability), dayMean: profile.meanSessionsPerDay)
        let weekendScale = scale(routineEpisodes(p.habitWeekendProbability),
                                 dayMean: profile.meanSessionsPerDay * p.weekendActivityFactor)
        let routineWeekday = routineEpisodes(p.habitWeekdayProbability) * weekdayScale
        let routineWeekend = routineEpisodes(p.habitWeekendProbability) * weekendScale

        func length() -> Int64 { Int64((sessionLengthSeconds(userScale: profile.lengthScale, using: rng) * 1e6).rounded()) }
        func drawApp(atHour h: Int) -> Int {
            let cum = byHour[min(max(h, 0), 23)]
            let u = rng.uniform() * (cum.last ?? 0)
            var i = 0
            while i < apps.count - 1 && cum[i] <= u { i += 1 }
            return i
        }
        var drawn: [(start: Int64, length: Int64, app: Int)] = []
        drawn.reserveCapacity(Int(profile.meanSessionsPerDay * Double(days) * 1.2) + 16)
        /// One episode from `start` (µs) opening `first`, then its revisits.
        func episode(start: Int64, first: Int) {
            var t = start, app = first
            while true {
                let l = length()
                drawn.append((t, l, app))
                guard rng.uniform() < continueProbability else {
                    guard rng.uniform() < s.revisitProbability else { return }
                    t += l + Int64(rng.exponential(mean: s.revisitMeanMinutes * 60e6))
                    app = first
                    continue
                }
                t += l + Int64(rng.exponential(mean: s.episodeGapMeanSeconds) * 1e6)
                let u = rng.uniform()
                if u < s.repeatProbability {
                    // the same app again
                } else if u < s.repeatProbability + (1 - s.repeatProbability) * s.successorProbability {
                    app = profile.successor[app]
                } else {
                    app = drawApp(atHour: Int((t % SimDuration.microsecondsPerDay) / SimDuration.microsecondsPerHour))
                }
            }
        }

        for day in 0..<days {
            let weekend = SimTime(day: day).isWeekend
            let dayStart = Int64(day) * SimDuration.microsecondsPerDay
            let dayMean = profile.meanSessionsPerDay * (weekend ? p.weekendActivityFactor : 1)
            let dayProbability = weekend ? p.habitWeekendProbability : p.habitWeekdayProbability
            let routine = weekend ? routineWeekend : routineWeekday
            let slotScale = weekend ? weekendScale : weekdayScale
            let randomEpisodes = rng.poisson(mean: max(0, dayMean / sessionsPerChain - routine))
            for _ in 0..<randomEpisodes {
                let h = rhythmHour(weekend: weekend, using: rng)
                episode(start: dayStart + Int64(h * hour), first: drawApp(atHour: Int(h)))
            }
            for (app, slots) in profile.routineSlots.enumerated() {
                for slot in slots {
                    guard rng.uniform() < min(1, profile.routineStrength[app] * dayProbability) * slotScale else { continue }
                    repeat {
                        var h = slot + rng.normal(mean: 0, sd: p.habitJitterMinutes / 60)
                        h -= 24 * (h / 24).rounded(.down)  // stay inside this day
                        episode(start: dayStart + Int64(h * hour), first: app)
                    } while rng.uniform() < repeatSlot
                }
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
        return sessions
    }
}
