// Every knob of the synthetic-trace generators, with its unit, default and
// the source of the default. "(unverified)" marks a figure recalled from a
// paper but not re-checked (REFERENCES.md); "assumption" marks a default with
// no source, chosen to be plausible — override it when you have data.
//
// Decoding: every key is optional and a missing key keeps its default, so an
// experiment spec overrides only what it names. Unknown keys are ignored by
// the decoder; a caller that wants to reject them checks against `knownKeys`.

/// All generator parameters. `GeneratorParameters.default` reproduces the
/// sample in `Datasets/`.
public struct GeneratorParameters: Sendable, Codable, Equatable {
    /// The app list shared by the whole population (default: `TraceApp.defaultApps`).
    public var apps: [TraceApp]
    public var usage: UsageParameters
    /// Episodes, transitions and routines.
    public var structure: UsageStructureParameters
    public var power: PowerParameters
    public var network: NetworkParameters
    public var content: ContentParameters

    public static let `default` = GeneratorParameters(
        apps: TraceApp.defaultApps, usage: .default, structure: .default, power: .default,
        network: .default, content: .default)

    public enum CodingKeys: String, CodingKey, CaseIterable {
        case apps, usage, structure, power, network, content
    }
    public static var knownKeys: [String] { CodingKeys.allCases.map(\.stringValue) }

    public init(apps: [TraceApp], usage: UsageParameters, structure: UsageStructureParameters = .default,
                power: PowerParameters, network: NetworkParameters, content: ContentParameters) {
        self.apps = apps; self.usage = usage; self.structure = structure; self.power = power
        self.network = network; self.content = content
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = Self.default
        apps = try c.value(.apps, or: d.apps)
        usage = try c.value(.usage, or: d.usage)
        structure = try c.value(.structure, or: d.structure)
        power = try c.value(.power, or: d.power)
        network = try c.value(.network, or: d.network)
        content = try c.value(.content, or: d.content)
    }

    /// Human-readable problems with the parameters (empty when valid).
    public func problems() -> [String] {
        var p: [String] = []
        if apps.isEmpty { p.append("apps: at least one app is needed") }
        for (i, a) in apps.enumerated() {
            if a.name.isEmpty || !a.name.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_" || $0 == "-") }) {
                p.append("apps[\(i)].name \"\(a.name)\": expected [a-z0-9_-]+")
            }
            if !(a.contentUpdatesPerHour >= 0) { p.append("apps[\(i)].contentUpdatesPerHour must be >= 0") }
            if !(0...1).contains(a.contentRhythmAmplitude) { p.append("apps[\(i)].contentRhythmAmplitude must be in [0, 1]") }
            if !(a.basePopularity > 0) { p.append("apps[\(i)].basePopularity must be > 0") }
            if let h = a.habitHour, !(0..<24).contains(h) { p.append("apps[\(i)].habitHour must be in [0, 24)") }
        }
        if Set(apps.map(\.name)).count != apps.count { p.append("apps: names must be unique") }
        let u = usage
        if !(0...1).contains(u.habitRegularity) { p.append("usage.habitRegularity must be in [0, 1]") }
        if !(u.sessionsPerDayMin > 0 && u.sessionsPerDayMin <= u.sessionsPerDayMax) {
            p.append("usage.sessionsPerDayMin must be > 0 and <= sessionsPerDayMax")
        }
        if u.weekdayHourlyWeights.count != 24 || u.weekendHourlyWeights.count != 24 {
            p.append("usage.weekdayHourlyWeights and weekendHourlyWeights need 24 entries")
        }
        if (u.weekdayHourlyWeights + u.weekendHourlyWeights).contains(where: { !($0 >= 0) }) {
            p.append("usage hourly weights must be >= 0")
        }
        if !(0...1).contains(u.tailProbability) { p.append("usage.tailProbability must be in [0, 1]") }
        if !(u.bodyMeanSeconds > 0 && u.tailScaleSeconds > 0 && u.tailShape > 0) {
            p.append("usage.bodyMeanSeconds, tailScaleSeconds and tailShape must be > 0")
        }
        if !(u.minSessionSeconds > 0 && u.minSessionSeconds <= u.maxSessionSeconds) {
            p.append("usage.minSessionSeconds must be > 0 and <= maxSessionSeconds")
        }
        let w = power
        if !(w.batteryCapacityWh > 0) { p.append("power.batteryCapacityWh must be > 0") }
        for (name, v) in [("overnightProbability", w.overnightProbability),
                          ("lowPowerModeAccept20Min", w.lowPowerModeAccept20Min),
                          ("lowPowerModeAccept20Max", w.lowPowerModeAccept20Max),
                          ("lowPowerModeAccept10Min", w.lowPowerModeAccept10Min),
                          ("lowPowerModeAccept10Max", w.lowPowerModeAccept10Max),
                          ("backgroundAppRefreshOffProbability", w.backgroundAppRefreshOffProbability)]
        where !(0...1).contains(v) { p.append("power.\(name) must be in [0, 1]") }
        let n = network
        for (name, v) in [("homeWifiProbability", n.homeWifiProbability),
                          ("worksAwayProbability", n.worksAwayProbability),
                          ("workWifiProbability", n.workWifiProbability),
                          ("eveningOutingProbability", n.eveningOutingProbability)]
        where !(0...1).contains(v) { p.append("network.\(name) must be in [0, 1]") }
        if !(content.rateScale >= 0) { p.append("content.rateScale must be >= 0") }
        return p + usageStructureProblems(path: "")
    }
}

/// Foreground sessions (`UsageGenerator`).
public struct UsageParameters: Sendable, Codable, Equatable {
    /// Median of the population's mean sessions a day (sessions/day). Default
    /// 40: with `sessionsPerDaySigma` the population spans Falaki et al. 2010's
    /// 10–200 interactions a day (assumption for the shape of the spread).
    public var sessionsPerDayMedian: Double = 40
    /// Log-standard deviation of the users' mean sessions a day (lognormal
    /// spread). Default 0.7 (assumption).
    public var sessionsPerDaySigma: Double = 0.7
    /// Clamp of a user's mean sessions a day, sessions/day. Default 10 and 200
    /// (Falaki et al. 2010, MobiSys).
    public var sessionsPerDayMin: Double = 10
    public var sessionsPerDayMax: Double = 200
    /// Users under this mean (sessions/day) are "light". Default 25 (assumption).
    public var lightBelowSessionsPerDay: Double = 25
    /// Users above this mean (sessions/day) are "heavy". Default 80 (assumption).
    public var heavyAboveSessionsPerDay: Double = 80
    /// Relative session-arrival rate per hour of a weekday (24 values, index =
    /// hour). Default: quiet from 01:00 to 06:00, rising at 07:00, highest in
    /// the evening — assumption, shaped after the diurnal curves of Falaki et
    /// al. 2010 (unverified).
    public var weekdayHourlyWeights: [Double] = [
        0.6, 0.3, 0.15, 0.1, 0.1, 0.2, 0.8, 2.2, 3.0, 2.6, 2.4, 2.6,
        3.2, 2.8, 2.4, 2.4, 2.6, 3.0, 3.2, 3.4, 3.6, 3.6, 2.8, 1.6,
    ]
    /// Same for Saturday and Sunday: later start, later night. Assumption.
    public var weekendHourlyWeights: [Double] = [
        1.0, 0.6, 0.3, 0.15, 0.1, 0.1, 0.2, 0.6, 1.4, 2.2, 2.8, 3.0,
        3.0, 2.8, 2.6, 2.6, 2.6, 2.8, 3.0, 3.2, 3.4, 3.4, 3.0, 2.0,
    ]
    /// Weekend-day sessions as a multiple of a weekday's. Default 0.9 (assumption).
    public var weekendActivityFactor: Double = 0.9

    // Session length: with probability 1 − tailProbability an exponential
    // body, else a shifted Pareto (Lomax) tail starting at tailLocationSeconds
    // — the mixture Falaki et al. 2010 fit. Defaults are calibrated so that
    // about 50 % of sessions are under 30 s and about 90 % under 4 min (Yan et
    // al. 2012, FALCON): body P(<30 s) = 1 − e^{−30/25} = 0.70, and
    // (1 − 0.285)·0.70 = 0.50; tail P(>240 s) = (1 + 210/208)^{−1.5} = 0.35,
    // and 0.285·0.35 = 0.10. Mean ≈ 145 s, inside Falaki's 10–250 s.
    /// Mean of the exponential body, s. Default 25.
    public var bodyMeanSeconds: Double = 25
    /// Probability that a session's length comes from the tail. Default 0.285.
    public var tailProbability: Double = 0.285
    /// Where the tail starts, s. Default 30.
    public var tailLocationSeconds: Double = 30
    /// Lomax scale of the tail, s. Default 208.
    public var tailScaleSeconds: Double = 208
    /// Lomax (Pareto) shape of the tail. Default 1.5.
    public var tailShape: Double = 1.5
    /// Session lengths are clamped to [min, max], s. Defaults 1 s and 2 h (assumption).
    public var minSessionSeconds: Double = 1
    public var maxSessionSeconds: Double = 7200
    /// Log-standard deviation of a per-user multiplier of session lengths
    /// (Falaki: mean interaction length varies 10–250 s across users).
    /// Default 0 keeps the pooled calibration exact; 0.5 gives a visible
    /// spread at the cost of a slightly longer pooled tail.
    public var userLengthSigma: Double = 0
    /// Minimum screen-off gap between two sessions, s: a session drawn to
    /// start before the previous one ends (+ gap) is moved later. Default 1.
    public var minGapSeconds: Double = 1

    /// Log-standard deviation of each user's perturbation of an app's base
    /// popularity (weight = base · e^{N(0, σ²)}). Default 0.8 (assumption;
    /// with the 26-app catalogue it puts the most-frequently-used recall at 9
    /// candidates near Shin et al. 2012's 79.8 %).
    public var popularitySigma: Double = 0.8
    /// How strong routines are, in [0, 1]: multiplies every user's routine
    /// strength for every app (`UsageStructureParameters`), so 0 removes
    /// routines (a usage-learning policy then has only the rhythm, the
    /// apps' time-of-day preferences and the bursts to learn) and 1 keeps
    /// the drawn strengths. Default 1 (assumption; the strengths themselves
    /// are drawn per user and app).
    public var habitRegularity: Double = 1.0
    /// Probability that a user has a routine for an installed app (apps
    /// with a `habitHour` get their first slot there, others where the user
    /// is active). Default 0.8 (assumption).
    public var habitAdoptionProbability: Double = 0.8
    /// Standard deviation of a user's own habit time around the app's
    /// `habitHour`, hours. Default 1.0 (assumption).
    public var habitUserHourSD: Double = 1.0
    /// Standard deviation of an anchored habit session around the user's
    /// habit time, day to day, minutes. Default 10 (assumption).
    public var habitJitterMinutes: Double = 10
    /// Probability that a full-strength routine plays out on a weekday /
    /// weekend day (times the routine's strength). Defaults 0.9 and 0.5
    /// (assumption).
    public var habitWeekdayProbability: Double = 0.9
    public var habitWeekendProbability: Double = 0.5

    public static let `default` = UsageParameters()
    public init() {}

    public enum CodingKeys: String, CodingKey, CaseIterable {
        case sessionsPerDayMedian, sessionsPerDaySigma, sessionsPerDayMin, sessionsPerDayMax
        case lightBelowSessionsPerDay, heavyAboveSessionsPerDay
        case weekdayHourlyWeights, weekendHourlyWeights, weekendActivityFactor
        case bodyMeanSeconds, tailProbability, tailLocationSeconds, tailScaleSeconds, tailShape
        case minSessionSeconds, maxSessionSeconds, userLengthSigma, minGapSeconds
        case popularitySigma, habitRegularity, habitAdoptionProbability, habitUserHourSD
        case habitJitterMinutes, habitWeekdayProbability, habitWeekendProbability
    }
    public static var knownKeys: [String] { CodingKeys.allCases.map(\.stringValue) }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = Self.default
        sessionsPerDayMedian = try c.value(.sessionsPerDayMedian, or: d.sessionsPerDayMedian)
        sessionsPerDaySigma = try c.value(.sessionsPerDaySigma, or: d.sessionsPerDaySigma)
        sessionsPerDayMin = try c.value(.sessionsPerDayMin, or: d.sessionsPerDayMin)
        sessionsPerDayMax = try c.value(.sessionsPerDayMax, or: d.sessionsPerDayMax)
        lightBelowSessionsPerDay = try c.value(.lightBelowSessionsPerDay, or: d.lightBelowSessionsPerDay)
        heavyAboveSessionsPerDay = try c.value(.heavyAboveSessionsPerDay, or: d.heavyAboveSessionsPerDay)
        weekdayHourlyWeights = try c.value(.weekdayHourlyWeights, or: d.weekdayHourlyWeights)
        weekendHourlyWeights = try c.value(.weekendHourlyWeights, or: d.weekendHourlyWeights)
        weekendActivityFactor = try c.value(.weekendActivityFactor, or: d.weekendActivityFactor)
        bodyMeanSeconds = try c.value(.bodyMeanSeconds, or: d.bodyMeanSeconds)
        tailProbability = try c.value(.tailProbability, or: d.tailProbability)
        tailLocationSeconds = try c.value(.tailLocationSeconds, or: d.tailLocationSeconds)
        tailScaleSeconds = try c.value(.tailScaleSeconds, or: d.tailScaleSeconds)
        tailShape = try c.value(.tailShape, or: d.tailShape)
        minSessionSeconds = try c.value(.minSessionSeconds, or: d.minSessionSeconds)
        maxSessionSeconds = try c.value(.maxSessionSeconds, or: d.maxSessionSeconds)
        userLengthSigma = try c.value(.userLengthSigma, or: d.userLengthSigma)
        minGapSeconds = try c.value(.minGapSeconds, or: d.minGapSeconds)
        popularitySigma = try c.value(.popularitySigma, or: d.popularitySigma)
        habitRegularity = try c.value(.habitRegularity, or: d.habitRegularity)
        habitAdoptionProbability = try c.value(.habitAdoptionProbability, or: d.habitAdoptionProbability)
        habitUserHourSD = try c.value(.habitUserHourSD, or: d.habitUserHourSD)
        habitJitterMinutes = try c.value(.habitJitterMinutes, or: d.habitJitterMinutes)
        habitWeekdayProbability = try c.value(.habitWeekdayProbability, or: d.habitWeekdayProbability)
        habitWeekendProbability = try c.value(.habitWeekendProbability, or: d.habitWeekendProbability)
    }
}

/// Charging, drain and Low Power Mode behaviour (`PowerGenerator`).
/// There is no sourced charging distribution (REFERENCES.md): every charging
/// default is an assumption, kept visible here.
public struct PowerParameters: Sendable, Codable, Equatable {
    /// Battery capacity, Wh. Default 12.4 (Docs/References.md; 3,240 mAh × 3.85 V ≈ 12.5 Wh).
    public var batteryCapacityWh: Double = 12.4
    /// Battery level at time 0 is uniform in [min, max] %. Defaults 50, 100 (assumption).
    public var initialBatteryMinPercent: Double = 50
    public var initialBatteryMaxPercent: Double = 100
    /// Median screen-on drain across users, W; lognormal with log-sd
    /// `screenOnDrainSigma`. Defaults 1.5 W and 0.25 (assumption).
    public var screenOnDrainMedianWatts: Double = 1.5
    public var screenOnDrainSigma: Double = 0.25
    /// Median screen-off (idle) drain across users, W, before any simulated
    /// background work; lognormal with log-sd `idleDrainSigma`. Defaults
    /// 0.06 W (about 0.5 % of 12.4 Wh an hour) and 0.3 (assumption; the
    /// radio-off base power alone is about 11.4 mW, unverified).
    public var idleDrainMedianWatts: Double = 0.06
    public var idleDrainSigma: Double = 0.3
    /// Power into the battery while charging, W. Default 7.5 (assumption:
    /// empty to full in about 1.7 h).
    public var chargingWatts: Double = 7.5
    /// Probability that the phone is charged on a given night. Default 0.9 (assumption).
    public var overnightProbability: Double = 0.9
    /// Plug-in time of the overnight charge, hours after midnight (may exceed
    /// 24): population mean 22.5, per-user SD 1.0, night-to-night SD 0.75 (assumption).
    public var plugInHourMean: Double = 22.5
    public var plugInHourUserSD: Double = 1.0
    public var plugInHourNightSD: Double = 0.75
    /// Unplug time the next morning, hours after midnight: mean 7.0, per-user
    /// SD 0.75, day-to-day SD 0.5; on Saturday and Sunday mornings later by
    /// `weekendUnplugDelayHours` = 1.5 (assumption).
    public var unplugHourMean: Double = 7.0
    public var unplugHourUserSD: Double = 0.75
    public var unplugHourNightSD: Double = 0.5
    public var weekendUnplugDelayHours: Double = 1.5
    /// Daytime top-ups: Poisson count a day with this mean (default 0.5),
    /// starting uniformly in [earliest, latest) hours (8, 20), lasting an
    /// exponential time of mean `topUpMeanMinutes` (30) clamped to
    /// [min, max] minutes (5, 120). Assumption.
    public var topUpsPerDayMean: Double = 0.5
    public var topUpEarliestHour: Double = 8
    public var topUpLatestHour: Double = 20
    public var topUpMeanMinutes: Double = 30
    public var topUpMinMinutes: Double = 5
    public var topUpMaxMinutes: Double = 120
    /// A user's probability of accepting the Low Power Mode offer at 20 % is
    /// uniform in [min, max]; likewise at 10 %. Defaults 0.1–0.7 and 0.3–0.9
    /// (assumption: more users accept when the battery is lower).
    public var lowPowerModeAccept20Min: Double = 0.1
    public var lowPowerModeAccept20Max: Double = 0.7
    public var lowPowerModeAccept10Min: Double = 0.3
    public var lowPowerModeAccept10Max: Double = 0.9
    /// Probability that a user has switched Background App Refresh off for an
    /// installed app (apps not installed have it off anyway). Default 0.2:
    /// iOS turns it on for every app by default (Docs/References.md), and some users
    /// switch it off for some apps — the share is an assumption.
    public var backgroundAppRefreshOffProbability: Double = 0.2

    public static let `default` = PowerParameters()
    public init() {}

    public enum CodingKeys: String, CodingKey, CaseIterable {
        case batteryCapacityWh, initialBatteryMinPercent, initialBatteryMaxPercent
        case screenOnDrainMedianWatts, screenOnDrainSigma, idleDrainMedianWatts, idleDrainSigma
        case chargingWatts, overnightProbability
        case plugInHourMean, plugInHourUserSD, plugInHourNightSD
        case unplugHourMean, unplugHourUserSD, unplugHourNightSD, weekendUnplugDelayHours
        case topUpsPerDayMean, topUpEarliestHour, topUpLatestHour
        case topUpMeanMinutes, topUpMinMinutes, topUpMaxMinutes
        case lowPowerModeAccept20Min, lowPowerModeAccept20Max
        case lowPowerModeAccept10Min, lowPowerModeAccept10Max
        case backgroundAppRefreshOffProbability
    }
    public static var knownKeys: [String] { CodingKeys.allCases.map(\.stringValue) }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = Self.default
        batteryCapacityWh = try c.value(.batteryCapacityWh, or: d.batteryCapacityWh)
        initialBatteryMinPercent = try c.value(.initialBatteryMinPercent, or: d.initialBatteryMinPercent)
        initialBatteryMaxPercent = try c.value(.initialBatteryMaxPercent, or: d.initialBatteryMaxPercent)
        screenOnDrainMedianWatts = try c.value(.screenOnDrainMedianWatts, or: d.screenOnDrainMedianWatts)
        screenOnDrainSigma = try c.value(.screenOnDrainSigma, or: d.screenOnDrainSigma)
        idleDrainMedianWatts = try c.value(.idleDrainMedianWatts, or: d.idleDrainMedianWatts)
        idleDrainSigma = try c.value(.idleDrainSigma, or: d.idleDrainSigma)
        chargingWatts = try c.value(.chargingWatts, or: d.chargingWatts)
        overnightProbability = try c.value(.overnightProbability, or: d.overnightProbability)
        plugInHourMean = try c.value(.plugInHourMean, or: d.plugInHourMean)
        plugInHourUserSD = try c.value(.plugInHourUserSD, or: d.plugInHourUserSD)
        plugInHourNightSD = try c.value(.plugInHourNightSD, or: d.plugInHourNightSD)
        unplugHourMean = try c.value(.unplugHourMean, or: d.unplugHourMean)
        unplugHourUserSD = try c.value(.unplugHourUserSD, or: d.unplugHourUserSD)
        unplugHourNightSD = try c.value(.unplugHourNightSD, or: d.unplugHourNightSD)
        weekendUnplugDelayHours = try c.value(.weekendUnplugDelayHours, or: d.weekendUnplugDelayHours)
        topUpsPerDayMean = try c.value(.topUpsPerDayMean, or: d.topUpsPerDayMean)
        topUpEarliestHour = try c.value(.topUpEarliestHour, or: d.topUpEarliestHour)
        topUpLatestHour = try c.value(.topUpLatestHour, or: d.topUpLatestHour)
        topUpMeanMinutes = try c.value(.topUpMeanMinutes, or: d.topUpMeanMinutes)
        topUpMinMinutes = try c.value(.topUpMinMinutes, or: d.topUpMinMinutes)
        topUpMaxMinutes = try c.value(.topUpMaxMinutes, or: d.topUpMaxMinutes)
        lowPowerModeAccept20Min = try c.value(.lowPowerModeAccept20Min, or: d.lowPowerModeAccept20Min)
        lowPowerModeAccept20Max = try c.value(.lowPowerModeAccept20Max, or: d.lowPowerModeAccept20Max)
        lowPowerModeAccept10Min = try c.value(.lowPowerModeAccept10Min, or: d.lowPowerModeAccept10Min)
        lowPowerModeAccept10Max = try c.value(.lowPowerModeAccept10Max, or: d.lowPowerModeAccept10Max)
        backgroundAppRefreshOffProbability = try c.value(.backgroundAppRefreshOffProbability, or: d.backgroundAppRefreshOffProbability)
    }
}

/// Wi-Fi, cellular and offline stretches (`NetworkGenerator`). All defaults
/// are assumptions (no source at hand).
public struct NetworkParameters: Sendable, Codable, Equatable {
    /// Probability that a user has Wi-Fi at home. Default 0.95.
    public var homeWifiProbability: Double = 0.95
    /// Probability that a user leaves home for work or school on weekdays. Default 0.7.
    public var worksAwayProbability: Double = 0.7
    /// Probability that such a user has Wi-Fi at work. Default 0.6.
    public var workWifiProbability: Double = 0.6
    /// Time the user leaves home on weekdays, hours after midnight: population
    /// mean 8.0, per-user SD 0.75, day-to-day SD 0.3.
    public var leaveHomeHourMean: Double = 8.0
    public var leaveHomeHourUserSD: Double = 0.75
    public var leaveHomeHourDaySD: Double = 0.3
    /// Hours at work: population mean 8.5, per-user SD 1.0 (clamped to 2–12 h).
    public var workHoursMean: Double = 8.5
    public var workHoursUserSD: Double = 1.0
    /// One-way commute (on cellular), minutes: per user uniform in [10, 60].
    public var commuteMinutesMin: Double = 10
    public var commuteMinutesMax: Double = 60
    /// Probability of going out on a weekday evening (cellular), starting
    /// uniformly in [18, 21) h, lasting an exponential time of mean 2 h.
    public var eveningOutingProbability: Double = 0.25
    public var outingMeanHours: Double = 2
    /// Outings on weekend days: Poisson count with mean 1.5, starting
    /// uniformly in [10, 20) h, each of exponential length, mean `outingMeanHours`.
    public var weekendOutingsMean: Double = 1.5
    /// Offline stretches (tunnel, flight, dead zone) anywhere in the day:
    /// Poisson count per day with mean 0.2, exponential length of mean 20
    /// min clamped to [1, 180] min.
    public var offlinePerDayMean: Double = 0.2
    public var offlineMeanMinutes: Double = 20
    public var offlineMinMinutes: Double = 1
    public var offlineMaxMinutes: Double = 180

    public static let `default` = NetworkParameters()
    public init() {}

    public enum CodingKeys: String, CodingKey, CaseIterable {
        case homeWifiProbability, worksAwayProbability, workWifiProbability
        case leaveHomeHourMean, leaveHomeHourUserSD, leaveHomeHourDaySD
        case workHoursMean, workHoursUserSD, commuteMinutesMin, commuteMinutesMax
        case eveningOutingProbability, outingMeanHours, weekendOutingsMean
        case offlinePerDayMean, offlineMeanMinutes, offlineMinMinutes, offlineMaxMinutes
    }
    public static var knownKeys: [String] { CodingKeys.allCases.map(\.stringValue) }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = Self.default
        homeWifiProbability = try c.value(.homeWifiProbability, or: d.homeWifiProbability)
        worksAwayProbability = try c.value(.worksAwayProbability, or: d.worksAwayProbability)
        workWifiProbability = try c.value(.workWifiProbability, or: d.workWifiProbability)
        leaveHomeHourMean = try c.value(.leaveHomeHourMean, or: d.leaveHomeHourMean)
        leaveHomeHourUserSD = try c.value(.leaveHomeHourUserSD, or: d.leaveHomeHourUserSD)
        leaveHomeHourDaySD = try c.value(.leaveHomeHourDaySD, or: d.leaveHomeHourDaySD)
        workHoursMean = try c.value(.workHoursMean, or: d.workHoursMean)
        workHoursUserSD = try c.value(.workHoursUserSD, or: d.workHoursUserSD)
        commuteMinutesMin = try c.value(.commuteMinutesMin, or: d.commuteMinutesMin)
        commuteMinutesMax = try c.value(.commuteMinutesMax, or: d.commuteMinutesMax)
        eveningOutingProbability = try c.value(.eveningOutingProbability, or: d.eveningOutingProbability)
        outingMeanHours = try c.value(.outingMeanHours, or: d.outingMeanHours)
        weekendOutingsMean = try c.value(.weekendOutingsMean, or: d.weekendOutingsMean)
        offlinePerDayMean = try c.value(.offlinePerDayMean, or: d.offlinePerDayMean)
        offlineMeanMinutes = try c.value(.offlineMeanMinutes, or: d.offlineMeanMinutes)
        offlineMinMinutes = try c.value(.offlineMinMinutes, or: d.offlineMinMinutes)
        offlineMaxMinutes = try c.value(.offlineMaxMinutes, or: d.offlineMaxMinutes)
    }
}

/// Server-side content updates (`ContentGenerator`). Per-app rates and
/// rhythms live in `TraceApp`.
public struct ContentParameters: Sendable, Codable, Equatable {
    /// Multiplies every app's `contentUpdatesPerHour`. Default 1.
    public var rateScale: Double = 1
    /// When false, every app's updates are homogeneous Poisson (its
    /// `contentRhythmAmplitude` is ignored). Default true.
    public var dailyRhythm: Bool = true

    public static let `default` = ContentParameters()
    public init() {}

    public enum CodingKeys: String, CodingKey, CaseIterable { case rateScale, dailyRhythm }
    public static var knownKeys: [String] { CodingKeys.allCases.map(\.stringValue) }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        rateScale = try c.value(.rateScale, or: Self.default.rateScale)
        dailyRhythm = try c.value(.dailyRhythm, or: Self.default.dailyRhythm)
    }
}

extension KeyedDecodingContainer {
    /// The value at `key`, or `fallback` when the key is absent.
    func value<T: Decodable>(_ key: Key, or fallback: T) throws -> T {
        try decodeIfPresent(T.self, forKey: key) ?? fallback
    }
}
