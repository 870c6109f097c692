import Traces

/// Ranges of the synthetic-generator parameters (`population.generator`,
/// and the `generator.json` of a generated trace set), checked in addition
/// to `GeneratorParameters.problems()` (which keeps the cross-field rules of
/// the Traces module). Documented in `Docs/ExperimentSpec.md` ("Generator
/// ranges"). Counts per day stop at a few hundred so a day's events stay
/// bounded; hours of the day allow up to 48 (a plug-in "after midnight" is
/// written as 24 + h).
public enum GeneratorRanges {
    static let hourOfDay = ValueRange(0, 48, unit: "h")
    static let sd = ValueRange(0, 24, unit: "h")
    static let logSD = ValueRange(0, 5)
    static let minutes = ValueRange(0, 1_440, unit: "min")

    public static let apps: [RangeRule<TraceApp>] = [
        RangeRule("contentUpdatesPerHour", ValueRange(0, 3_600, unit: "1/h")) { $0.contentUpdatesPerHour },
        RangeRule("contentRhythmAmplitude", .probability) { $0.contentRhythmAmplitude },
        RangeRule("contentPeakHour", ValueRange(0, 24, unit: "h")) { $0.contentPeakHour },
        RangeRule("basePopularity", ValueRange(0, 1_000, lowerOpen: true)) { $0.basePopularity },
        RangeRule("habitHour", ValueRange(0, 24, unit: "h")) { $0.habitHour },
    ]

    public static let usage: [RangeRule<UsageParameters>] = [
        RangeRule("sessionsPerDayMedian", ValueRange(0.1, 1_000, unit: "1/day")) { $0.sessionsPerDayMedian },
        RangeRule("sessionsPerDaySigma", logSD) { $0.sessionsPerDaySigma },
        RangeRule("sessionsPerDayMin", ValueRange(0.1, 1_000, unit: "1/day")) { $0.sessionsPerDayMin },
        RangeRule("sessionsPerDayMax", ValueRange(0.1, 1_000, unit: "1/day")) { $0.sessionsPerDayMax },
        RangeRule("lightBelowSessionsPerDay", ValueRange(0, 1_000, unit: "1/day")) { $0.lightBelowSessionsPerDay },
        RangeRule("heavyAboveSessionsPerDay", ValueRange(0, 1_000, unit: "1/day")) { $0.heavyAboveSessionsPerDay },
        RangeRule("weekendActivityFactor", ValueRange(0, 10)) { $0.weekendActivityFactor },
        RangeRule("bodyMeanSeconds", .seconds(0.01, 86_400)) { $0.bodyMeanSeconds },
        RangeRule("tailProbability", .probability) { $0.tailProbability },
        RangeRule("tailLocationSeconds", .seconds(0, 86_400)) { $0.tailLocationSeconds },
        RangeRule("tailScaleSeconds", .seconds(0.01, 86_400)) { $0.tailScaleSeconds },
        RangeRule("tailShape", ValueRange(0.01, 100)) { $0.tailShape },
        RangeRule("minSessionSeconds", .seconds(0.001, 86_400)) { $0.minSessionSeconds },
        RangeRule("maxSessionSeconds", .seconds(0.001, 86_400)) { $0.maxSessionSeconds },
        RangeRule("userLengthSigma", logSD) { $0.userLengthSigma },
        RangeRule("minGapSeconds", .seconds(0, 3_600)) { $0.minGapSeconds },
        RangeRule("popularitySigma", logSD) { $0.popularitySigma },
        RangeRule("habitRegularity", .probability) { $0.habitRegularity },
        RangeRule("habitAdoptionProbability", .probability) { $0.habitAdoptionProbability },
        RangeRule("habitUserHourSD", sd) { $0.habitUserHourSD },
        RangeRule("habitJitterMinutes", minutes) { $0.habitJitterMinutes },
        RangeRule("habitWeekdayProbability", .probability) { $0.habitWeekdayProbability },
        RangeRule("habitWeekendProbability", .probability) { $0.habitWeekendProbability },
    ]

    public static let power: [RangeRule<PowerParameters>] = [
        RangeRule("batteryCapacityWh", ValueRange(0.1, 1_000, unit: "Wh")) { $0.batteryCapacityWh },
        RangeRule("initialBatteryMinPercent", ValueRange(0, 100, unit: "%")) { $0.initialBatteryMinPercent },
        RangeRule("initialBatteryMaxPercent", ValueRange(0, 100, unit: "%")) { $0.initialBatteryMaxPercent },
        RangeRule("screenOnDrainMedianWatts", ValueRange(0, 100, unit: "W")) { $0.screenOnDrainMedianWatts },
        RangeRule("screenOnDrainSigma", logSD) { $0.screenOnDrainSigma },
        RangeRule("idleDrainMedianWatts", ValueRange(0, 100, unit: "W")) { $0.idleDrainMedianWatts },
        RangeRule("idleDrainSigma", logSD) { $0.idleDrainSigma },
        RangeRule("chargingWatts", ValueRange(0, 1_000, unit: "W")) { $0.chargingWatts },
        RangeRule("overnightProbability", .probability) { $0.overnightProbability },
        RangeRule("plugInHourMean", hourOfDay) { $0.plugInHourMean },
        RangeRule("plugInHourUserSD", sd) { $0.plugInHourUserSD },
        RangeRule("plugInHourNightSD", sd) { $0.plugInHourNightSD },
        RangeRule("unplugHourMean", hourOfDay) { $0.unplugHourMean },
        RangeRule("unplugHourUserSD", sd) { $0.unplugHourUserSD },
        RangeRule("unplugHourNightSD", sd) { $0.unplugHourNightSD },
        RangeRule("weekendUnplugDelayHours", ValueRange(0, 24, unit: "h")) { $0.weekendUnplugDelayHours },
        RangeRule("topUpsPerDayMean", ValueRange(0, 100, unit: "1/day")) { $0.topUpsPerDayMean },
        RangeRule("topUpEarliestHour", ValueRange(0, 24, unit: "h")) { $0.topUpEarliestHour },
        RangeRule("topUpLatestHour", ValueRange(0, 24, unit: "h")) { $0.topUpLatestHour },
        RangeRule("topUpMeanMinutes", ValueRange(0.01, 1_440, unit: "min")) { $0.topUpMeanMinutes },
        RangeRule("topUpMinMinutes", minutes) { $0.topUpMinMinutes },
        RangeRule("topUpMaxMinutes", minutes) { $0.topUpMaxMinutes },
        RangeRule("lowPowerModeAccept20Min", .probability) { $0.lowPowerModeAccept20Min },
        RangeRule("lowPowerModeAccept20Max", .probability) { $0.lowPowerModeAccept20Max },
        RangeRule("lowPowerModeAccept10Min", .probability) { $0.lowPowerModeAccept10Min },
        RangeRule("lowPowerModeAccept10Max", .probability) { $0.lowPowerModeAccept10Max },
        RangeRule("backgroundAppRefreshOffProbability", .probability) { $0.backgroundAppRefreshOffProbability },
    ]

    public static let network: [RangeRule<NetworkParameters>] = [
        RangeRule("homeWifiProbability", .probability) { $0.homeWifiProbability },
        RangeRule("worksAwayProbability", .probability) { $0.worksAwayProbability },
        RangeRule("workWifiProbability", .probability) { $0.workWifiProbability },
        RangeRule("leaveHomeHourMean", ValueRange(0, 24, unit: "h")) { $0.leaveHomeHourMean },
        RangeRule("leaveHomeHourUserSD", sd) { $0.leaveHomeHourUserSD },
        RangeRule("leaveHomeHourDaySD", sd) { $0.leaveHomeHourDaySD },
        RangeRule("workHoursMean", ValueRange(0, 24, unit: "h")) { $0.workHoursMean },
        RangeRule("workHoursUserSD", sd) { $0.workHoursUserSD },
        RangeRule("commuteMinutesMin", minutes) { $0.commuteMinutesMin },
        RangeRule("commuteMinutesMax", minutes) { $0.commuteMinutesMax },
        RangeRule("eveningOutingProbability", .probability) { $0.eveningOutingProbability },
        RangeRule("outingMeanHours", ValueRange(0.01, 24, unit: "h")) { $0.outingMeanHours },
        RangeRule("weekendOutingsMean", ValueRange(0, 100, unit: "1/day")) { $0.weekendOutingsMean },
        RangeRule("offlinePerDayMean", ValueRange(0, 100, unit: "1/day")) { $0.offlinePerDayMean },
        RangeRule("offlineMeanMinutes", ValueRange(0.01, 1_440, unit: "min")) { $0.offlineMeanMinutes },
        RangeRule("offlineMinMinutes", minutes) { $0.offlineMinMinutes },
        RangeRule("offlineMaxMinutes", minutes) { $0.offlineMaxMinutes },
    ]

    public static let content: [RangeRule<ContentParameters>] = [
        RangeRule("rateScale", ValueRange(0, 100)) { $0.rateScale },
    ]

    /// Pairs that must be ordered (min ≤ max), as (path of the smaller, of the larger).
    static func orderings(_ g: GeneratorParameters) -> [(String, Double, String, Double)] {
        [("usage.sessionsPerDayMin", g.usage.sessionsPerDayMin, "usage.sessionsPerDayMax", g.usage.sessionsPerDayMax),
         ("usage.minSessionSeconds", g.usage.minSessionSeconds, "usage.maxSessionSeconds", g.usage.maxSessionSeconds),
         ("power.initialBatteryMinPercent", g.power.initialBatteryMinPercent, "power.initialBatteryMaxPercent", g.power.initialBatteryMaxPercent),
         ("power.topUpEarliestHour", g.power.topUpEarliestHour, "power.topUpLatestHour", g.power.topUpLatestHour),
         ("power.topUpMinMinutes", g.power.topUpMinMinutes, "power.topUpMaxMinutes", g.power.topUpMaxMinutes),
         ("power.lowPowerModeAccept20Min", g.power.lowPowerModeAccept20Min, "power.lowPowerModeAccept20Max", g.power.lowPowerModeAccept20Max),
         ("power.lowPowerModeAccept10Min", g.power.lowPowerModeAccept10Min, "power.lowPowerModeAccept10Max", g.power.lowPowerModeAccept10Max),
         ("network.commuteMinutesMin", g.network.commuteMinutesMin, "network.commuteMinutesMax", g.network.commuteMinutesMax),
         ("network.offlineMinMinutes", g.network.offlineMinMinutes, "network.offlineMaxMinutes", g.network.offlineMaxMinutes)]
    }

    /// Content updates an app may publish per hour after `rateScale`.
    public static let maxUpdatesPerHour = 3_600.0

    /// At most this many apps: each user carries per-app state and a content stream per app.
    public static let maxApps = 1_000

    public static func check(_ g: GeneratorParameters, at path: String) throws(SpecError) {
        guard g.apps.count <= maxApps else {
            throw SpecError(path: path + ".apps", message: "\(g.apps.count) apps; at most \(maxApps) are allowed")
        }
        for (i, app) in g.apps.enumerated() { try apps.checkAll(app, under: "\(path).apps[\(i)]") }
        try usage.checkAll(g.usage, under: path + ".usage")
        for (key, weights) in [("weekdayHourlyWeights", g.usage.weekdayHourlyWeights),
                               ("weekendHourlyWeights", g.usage.weekendHourlyWeights)] {
            guard weights.count == 24 else {
                throw SpecError(path: "\(path).usage.\(key)", message: "expected 24 hourly weights, found \(weights.count)")
            }
            for (h, w) in weights.enumerated() { try ValueRange(0, 1_000).check(w, at: "\(path).usage.\(key)[\(h)]") }
            guard weights.reduce(0, +) > 0 else {
                throw SpecError(path: "\(path).usage.\(key)", message: "all 24 weights are 0; at least one hour needs sessions")
            }
        }
        try power.checkAll(g.power, under: path + ".power")
        try network.checkAll(g.network, under: path + ".network")
        try content.checkAll(g.content, under: path + ".content")
        // The rate actually generated is the app's rate times `rateScale`:
        // at most one update a second on average per app, so a day's content
        // stream stays bounded (86 400 updates) however the two are combined.
        for (i, app) in g.apps.enumerated() where app.contentUpdatesPerHour * g.content.rateScale > maxUpdatesPerHour {
            throw SpecError(path: "\(path).apps[\(i)].contentUpdatesPerHour", message: "\(ValueRange.show(app.contentUpdatesPerHour)) updates/h × content.rateScale \(ValueRange.show(g.content.rateScale)) is above \(ValueRange.show(maxUpdatesPerHour)) updates/h (one a second)")
        }
        for (lowKey, low, highKey, high) in orderings(g) where low > high {
            throw SpecError(path: "\(path).\(lowKey)", message: "\(ValueRange.show(low)) is above \(highKey) (\(ValueRange.show(high))); the minimum must not exceed the maximum")
        }
        if let problem = g.problems().first {
            throw SpecError(path: path, message: problem)
        }
    }
}
