// The knobs of the usage structure of the synthetic world:
// episodes (bursts of sessions), app-to-app transitions, per-user routines
// whose strength varies across users and apps, and installed apps. Each has
// a unit, a range, a default and a source, or says "assumption"
// (Datasets/References.md quotes the published figures).
//
// Decoding follows GeneratorParameters: every key is optional, a missing key
// keeps its default. `problems(path:)` is the validation of these values
// (and of the per-app traits in `TraceApp`), with the JSON path of each.

/// Episodes, transitions and routines (`UsageGenerator`).
public struct UsageStructureParameters: Sendable, Codable, Equatable {
    /// Mean number of sessions in an episode (a burst of screen-on sessions
    /// separated by short screen-off gaps), in [1, 50]. Episode lengths are
    /// geometric. Default 2.5 (assumption; Falaki et al. 2010 find most
    /// interactions short and bunched; van Berkel et al. CHI 2016 find most
    /// returns to the phone after short gaps start a new usage session).
    public var sessionsPerEpisodeMean: Double = 2.5
    /// Mean screen-off gap between two sessions of an episode, s,
    /// in (0, 3600], exponential. Default 45 (assumption).
    public var episodeGapMeanSeconds: Double = 45
    /// Probability that the next session of an episode is the same app
    /// again, in [0, 1]. Default 0.45 (assumption: re-launching the app
    /// just used is the most common single transition — Jones et al.,
    /// UbiComp 2015, revisitation; no figure at hand).
    public var repeatProbability: Double = 0.45
    /// Probability that, when not repeating, the next app is the user's own
    /// successor of the current one (a per-user, per-app app drawn once by
    /// popularity: mail → calendar), in [0, 1]. Otherwise the next app is
    /// drawn by popularity and time of day. Default 0.4 (assumption; Huang
    /// et al. UbiComp 2012: the last app used is the strongest single
    /// predictor of the next one on the MDC data).
    public var successorProbability: Double = 0.4
    /// Probability that an episode is followed by a revisit: another episode
    /// opening the same app a little later (checking back for a reply, the
    /// next part of a story), in [0, 0.95]. Revisits chain. Default 0.3
    /// (assumption; revisitation of apps within minutes: Jones et al.,
    /// UbiComp 2015).
    public var revisitProbability: Double = 0.3
    /// Mean delay from the end of an episode to its revisit, minutes (> 0),
    /// exponential. Default 10 (assumption).
    public var revisitMeanMinutes: Double = 10
    /// Each user's routine strength is uniform in [min, max] ⊂ [0, 1]; an
    /// app's routine strength for that user is that times the app's
    /// `routineAffinity` times `usage.habitRegularity`, clamped to [0, 1].
    /// Defaults 0.6 and 1.0 (assumption: routines differ across users,
    /// Falaki et al. 2010's "immense diversity").
    public var routineStrengthMin: Double = 0.6
    public var routineStrengthMax: Double = 1.0
    /// Maximum number of routine slots (times of day) per user and app,
    /// 1…4; each app gets 1…max, uniform. Default 2 (assumption).
    public var routineSlotsMax: Int = 2
    /// Expected routine episodes per slot and day at full routine strength
    /// (> 0). The slot's episode happens with probability strength ×
    /// habitWeekday/WeekendProbability, then repeats (another episode near
    /// the same time) with probability 1 − 1/this. Default 1.2 (assumption).
    public var routineEpisodesPerSlot: Double = 1.2
    /// Largest share of a user's expected episodes a day that routines may
    /// take, (0, 1]: a light user with many routines has them scaled down
    /// so that the daily mean still holds. Default 0.8 (assumption).
    public var routineShareMax: Double = 0.8

    public static let `default` = UsageStructureParameters()
    public init() {}

    public enum CodingKeys: String, CodingKey, CaseIterable {
        case sessionsPerEpisodeMean, episodeGapMeanSeconds, repeatProbability, successorProbability
        case revisitProbability, revisitMeanMinutes
        case routineStrengthMin, routineStrengthMax, routineSlotsMax, routineEpisodesPerSlot, routineShareMax
    }
    public static var knownKeys: [String] { CodingKeys.allCases.map(\.stringValue) }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = Self.default
        sessionsPerEpisodeMean = try c.value(.sessionsPerEpisodeMean, or: d.sessionsPerEpisodeMean)
        episodeGapMeanSeconds = try c.value(.episodeGapMeanSeconds, or: d.episodeGapMeanSeconds)
        repeatProbability = try c.value(.repeatProbability, or: d.repeatProbability)
        successorProbability = try c.value(.successorProbability, or: d.successorProbability)
        revisitProbability = try c.value(.revisitProbability, or: d.revisitProbability)
        revisitMeanMinutes = try c.value(.revisitMeanMinutes, or: d.revisitMeanMinutes)
        routineStrengthMin = try c.value(.routineStrengthMin, or: d.routineStrengthMin)
        routineStrengthMax = try c.value(.routineStrengthMax, or: d.routineStrengthMax)
        routineSlotsMax = try c.int(.routineSlotsMax, default: d.routineSlotsMax, in: 1...4)
        routineEpisodesPerSlot = try c.value(.routineEpisodesPerSlot, or: d.routineEpisodesPerSlot)
        routineShareMax = try c.value(.routineShareMax, or: d.routineShareMax)
    }

    /// Problems with these values, each naming its JSON path under `path`
    /// (e.g. "$.population.generator.structure"); empty when valid.
    public func problems(path: String) -> [String] {
        var p: [String] = []
        func check(_ ok: Bool, _ key: CodingKeys, _ allowed: String, _ value: Any) {
            if !ok { p.append("\(path).\(key.stringValue): \(value) is not allowed; expected \(allowed)") }
        }
        check(sessionsPerEpisodeMean >= 1 && sessionsPerEpisodeMean <= 50, .sessionsPerEpisodeMean, "a number in [1, 50]", sessionsPerEpisodeMean)
        check(episodeGapMeanSeconds > 0 && episodeGapMeanSeconds <= 3600, .episodeGapMeanSeconds, "seconds in (0, 3600]", episodeGapMeanSeconds)
        check((0...1).contains(repeatProbability), .repeatProbability, "a probability in [0, 1]", repeatProbability)
        check((0...1).contains(successorProbability), .successorProbability, "a probability in [0, 1]", successorProbability)
        check((0...0.95).contains(revisitProbability), .revisitProbability, "a probability in [0, 0.95]", revisitProbability)
        check(revisitMeanMinutes > 0 && revisitMeanMinutes <= 1440, .revisitMeanMinutes, "minutes in (0, 1440]", revisitMeanMinutes)
        check((0...1).contains(routineStrengthMin), .routineStrengthMin, "a number in [0, 1]", routineStrengthMin)
        check((0...1).contains(routineStrengthMax) && routineStrengthMax >= routineStrengthMin, .routineStrengthMax,
              "a number in [routineStrengthMin, 1]", routineStrengthMax)
        check((1...4).contains(routineSlotsMax), .routineSlotsMax, "an integer in [1, 4]", routineSlotsMax)
        check(routineEpisodesPerSlot >= 1 && routineEpisodesPerSlot <= 10, .routineEpisodesPerSlot, "a number in [1, 10]", routineEpisodesPerSlot)
        check(routineShareMax > 0 && routineShareMax <= 1, .routineShareMax, "a share in (0, 1]", routineShareMax)
        return p
    }
}

extension GeneratorParameters {
    /// The validation of the usage structure: `structure` and the
    /// per-app traits of `apps` (`TraceApp`'s category, installProbability,
    /// routineAffinity, usageRhythmAmplitude, contentPattern,
    /// contentBurstMeanSize, contentBurstGapMinutes). Each problem names its
    /// JSON path under `path` (the generator object, e.g.
    /// "$.population.generator"). Empty when valid.
    /// An empty `path` gives paths relative to the generator object
    /// ("structure.repeatProbability"), as `problems()` reports them.
    public func usageStructureProblems(path: String = "$") -> [String] {
        let base = path.isEmpty ? "" : path + "."
        var p = structure.problems(path: "\(base)structure")
        for (i, a) in apps.enumerated() {
            let at = "\(base)apps[\(i)]"
            if !(0...1).contains(a.installProbability) {
                p.append("\(at).installProbability: \(a.installProbability) is not allowed; expected a probability in [0, 1]")
            }
            if !(a.routineAffinity >= 0 && a.routineAffinity <= 2) {
                p.append("\(at).routineAffinity: \(a.routineAffinity) is not allowed; expected a number in [0, 2]")
            }
            if !(0...1).contains(a.usageRhythmAmplitude) {
                p.append("\(at).usageRhythmAmplitude: \(a.usageRhythmAmplitude) is not allowed; expected a number in [0, 1]")
            }
            if !(a.contentBurstMeanSize >= 1 && a.contentBurstMeanSize <= 100) {
                p.append("\(at).contentBurstMeanSize: \(a.contentBurstMeanSize) is not allowed; expected a number in [1, 100]")
            }
            if !(a.contentBurstGapMinutes > 0 && a.contentBurstGapMinutes <= 1440) {
                p.append("\(at).contentBurstGapMinutes: \(a.contentBurstGapMinutes) is not allowed; expected minutes in (0, 1440]")
            }
            if a.contentPattern == .scheduled && a.contentUpdatesPerHour > 60 {
                p.append("\(at).contentUpdatesPerHour: \(a.contentUpdatesPerHour) is not allowed for a scheduled feed; expected at most 60 a hour")
            }
            if a.category.isEmpty || a.category.contains(",") {
                p.append("\(at).category: \"\(a.category)\" is not allowed; expected a non-empty name without commas")
            }
        }
        if !apps.contains(where: { $0.installProbability > 0 }) {
            p.append("\(base)apps: at least one app needs installProbability > 0")
        }
        return p
    }
}
