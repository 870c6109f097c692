// The knobs of the usage structure of the synthetic world:
// episodes (bursts of sessions), app-to-app transitions, per-user routines
// whose strength varies across users and apps, and installed apps. Each has
// a unit, a range, a default and a source, or says "assumption"
// (Datasets/References.md quotes the published figures).
//
// Declared as GeneratorParameters is (``DeclaredParameters``): every key is
// optional, a missing key keeps its default, the ranges are in `parameters`.

/// Episodes, transitions and routines (`UsageGenerator`).
public struct UsageStructureParameters: DeclaredParameters, Equatable {
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

    public static let parameters: [Parameter<UsageStructureParameters>] = [
        .real("sessionsPerEpisodeMean", \.sessionsPerEpisodeMean, ValueRange(1, 50),
              source: "assumption (Falaki et al. 2010; van Berkel et al. CHI 2016)"),
        .real("episodeGapMeanSeconds", \.episodeGapMeanSeconds, .seconds(0, 3_600, open: true), source: "assumption"),
        .real("repeatProbability", \.repeatProbability, .probability, source: "assumption (Jones et al., UbiComp 2015)"),
        .real("successorProbability", \.successorProbability, .probability, source: "assumption (Huang et al., UbiComp 2012)"),
        .real("revisitProbability", \.revisitProbability, ValueRange(0, 0.95), source: "assumption (Jones et al., UbiComp 2015)"),
        .real("revisitMeanMinutes", \.revisitMeanMinutes, ValueRange(0, 1_440, lowerOpen: true, unit: "min"), source: "assumption"),
        .real("routineStrengthMin", \.routineStrengthMin, .probability, source: "assumption (Falaki et al. 2010's diversity)"),
        .real("routineStrengthMax", \.routineStrengthMax, .probability, source: "assumption"),
        .integer("routineSlotsMax", \.routineSlotsMax, 1...4, source: "assumption"),
        .real("routineEpisodesPerSlot", \.routineEpisodesPerSlot, ValueRange(1, 10), source: "assumption"),
        .real("routineShareMax", \.routineShareMax, ValueRange(0, 1, lowerOpen: true), source: "assumption"),
    ]

    /// A user's routine strength is drawn in [min, max].
    public var crossFieldProblem: (key: String, message: String)? {
        ValueRange.ordered("routineStrengthMin", routineStrengthMin, "routineStrengthMax", routineStrengthMax)
    }
}
