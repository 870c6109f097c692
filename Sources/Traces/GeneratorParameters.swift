// Every knob of the synthetic-trace generators, with its unit, default and
// the source of the default. "(unverified)" marks a figure recalled from a
// paper but not re-checked (REFERENCES.md); "assumption" marks a default with
// no source, chosen to be plausible — override it when you have data.
//
// Each type declares its keys once (`parameters`: key, range with unit,
// source; the default is the property's initial value); decoding, encoding,
// the range checks and the docs' "Generator ranges" table derive from that
// (``DeclaredParameters``): every key is optional, a missing key keeps its
// default, an unknown key or a value out of range is refused at its JSON
// path. The rules between keys are each type's `crossFieldProblem`.

/// All generator parameters. `GeneratorParameters.default` reproduces the
/// sample in `Datasets/`.
public struct GeneratorParameters: DeclaredParameters, Equatable {
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

    public init() { self = .default }

    public init(apps: [TraceApp], usage: UsageParameters, structure: UsageStructureParameters = .default,
                power: PowerParameters, network: NetworkParameters, content: ContentParameters) {
        self.apps = apps; self.usage = usage; self.structure = structure; self.power = power
        self.network = network; self.content = content
    }

    public static let parameters: [Parameter<GeneratorParameters>] = [
        .list("apps", \.apps, source: "Sources/Traces/DefaultApps.swift; a spec's list replaces it whole"),
        .object("usage", \.usage),
        .object("structure", \.structure),
        .object("power", \.power),
        .object("network", \.network),
        .object("content", \.content),
    ]

    /// At most this many apps: each user carries per-app state and a content stream per app.
    public static let maxApps = 1_000
    /// Content updates an app may publish per hour after `content.rateScale`:
    /// one a second on average, so a day's content stream stays bounded
    /// (86 400 updates) however the app's rate and the scale are combined.
    public static let maxUpdatesPerHour = 3_600.0

    /// The rules between the apps and the other sections (path relative to
    /// the generator object): at least one and at most ``maxApps`` apps,
    /// unique names, one app installed with some probability, and each
    /// app's rate times `content.rateScale` at most ``maxUpdatesPerHour``.
    public var crossFieldProblem: (key: String, message: String)? {
        if apps.isEmpty { return ("apps", "at least one app is needed") }
        if apps.count > Self.maxApps { return ("apps", "\(apps.count) apps; at most \(Self.maxApps) are allowed") }
        var seen: Set<String> = []
        for (i, a) in apps.enumerated() where !seen.insert(a.name).inserted {
            return ("apps[\(i)].name", "\"\(a.name)\" is the name of an earlier app; names must be unique")
        }
        if !apps.contains(where: { $0.installProbability > 0 }) {
            return ("apps", "at least one app needs installProbability > 0")
        }
        for (i, a) in apps.enumerated() where a.contentUpdatesPerHour * content.rateScale > Self.maxUpdatesPerHour {
            return ("apps[\(i)].contentUpdatesPerHour", "\(ValueRange.show(a.contentUpdatesPerHour)) updates/h × content.rateScale \(ValueRange.show(content.rateScale)) is above \(ValueRange.show(Self.maxUpdatesPerHour)) updates/h (one a second)")
        }
        return nil
    }
}

extension ValueRange {
    // Ranges shared by many generator parameters. Hours of the day allow up
    // to 48 where a time may fall after midnight (a plug-in at 24 + h).
    static let hourOfDay48 = ValueRange(0, 48, unit: "h")
    static let hourOfDay = ValueRange(0, 24, unit: "h")
    static let hoursSD = ValueRange(0, 24, unit: "h")
    static let logSD = ValueRange(0, 5)
    static let minutesOfDay = ValueRange(0, 1_440, unit: "min")
    static let perDay = ValueRange(0, 100, unit: "1/day")
    static let sessionsPerDay = ValueRange(0.1, 1_000, unit: "1/day")

    /// The rule that `low` (at `lowKey`) does not exceed `high`, as a cross-field problem.
    static func ordered(_ lowKey: String, _ low: Double, _ highKey: String, _ high: Double) -> (key: String, message: String)? {
        low <= high ? nil : (lowKey, "\(show(low)) is above \(highKey) (\(show(high))); the minimum must not exceed the maximum")
    }
}

/// Foreground sessions (`UsageGenerator`).
public struct UsageParameters: DeclaredParameters, Equatable {
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

    public static let parameters: [Parameter<UsageParameters>] = [
        .real("sessionsPerDayMedian", \.sessionsPerDayMedian, .sessionsPerDay, source: "Falaki et al. 2010 (10–200 a day) with the sigma; spread: assumption"),
        .real("sessionsPerDaySigma", \.sessionsPerDaySigma, .logSD, source: "assumption"),
        .real("sessionsPerDayMin", \.sessionsPerDayMin, .sessionsPerDay, source: "Falaki et al. 2010"),
        .real("sessionsPerDayMax", \.sessionsPerDayMax, .sessionsPerDay, source: "Falaki et al. 2010"),
        .real("lightBelowSessionsPerDay", \.lightBelowSessionsPerDay, ValueRange(0, 1_000, unit: "1/day"), source: "assumption"),
        .real("heavyAboveSessionsPerDay", \.heavyAboveSessionsPerDay, ValueRange(0, 1_000, unit: "1/day"), source: "assumption"),
        .value("weekdayHourlyWeights", \.weekdayHourlyWeights, source: "assumption, shaped after Falaki et al. 2010 (unverified)"),
        .value("weekendHourlyWeights", \.weekendHourlyWeights, source: "assumption"),
        .real("weekendActivityFactor", \.weekendActivityFactor, ValueRange(0, 10), source: "assumption"),
        .real("bodyMeanSeconds", \.bodyMeanSeconds, .seconds(0.01, 86_400), source: "Falaki et al. 2010 mixture, calibrated to Yan et al. 2012"),
        .real("tailProbability", \.tailProbability, .probability, source: "calibrated to Yan et al. 2012"),
        .real("tailLocationSeconds", \.tailLocationSeconds, .seconds(0, 86_400), source: "calibrated to Yan et al. 2012"),
        .real("tailScaleSeconds", \.tailScaleSeconds, .seconds(0.01, 86_400), source: "calibrated to Yan et al. 2012"),
        .real("tailShape", \.tailShape, ValueRange(0.01, 100), source: "calibrated to Yan et al. 2012"),
        .real("minSessionSeconds", \.minSessionSeconds, .seconds(0.001, 86_400), source: "assumption"),
        .real("maxSessionSeconds", \.maxSessionSeconds, .seconds(0.001, 86_400), source: "assumption"),
        .real("userLengthSigma", \.userLengthSigma, .logSD, source: "assumption (0 keeps the pooled calibration)"),
        .real("minGapSeconds", \.minGapSeconds, .seconds(0, 3_600), source: "assumption"),
        .real("popularitySigma", \.popularitySigma, .logSD, source: "assumption, near Shin et al. 2012's recall"),
        .real("habitRegularity", \.habitRegularity, .probability, source: "assumption"),
        .real("habitAdoptionProbability", \.habitAdoptionProbability, .probability, source: "assumption"),
        .real("habitUserHourSD", \.habitUserHourSD, .hoursSD, source: "assumption"),
        .real("habitJitterMinutes", \.habitJitterMinutes, .minutesOfDay, source: "assumption"),
        .real("habitWeekdayProbability", \.habitWeekdayProbability, .probability, source: "assumption"),
        .real("habitWeekendProbability", \.habitWeekendProbability, .probability, source: "assumption"),
    ]

    /// Largest relative weight of one hour.
    public static let hourlyWeight = ValueRange(0, 1_000)

    /// The ordered pairs, and the two 24-hour weight curves (24 weights in
    /// ``hourlyWeight``, not all 0: an array's entries have no declaration of their own).
    public var crossFieldProblem: (key: String, message: String)? {
        for (key, weights) in [("weekdayHourlyWeights", weekdayHourlyWeights), ("weekendHourlyWeights", weekendHourlyWeights)] {
            guard weights.count == 24 else { return (key, "expected 24 hourly weights, found \(weights.count)") }
            for (h, w) in weights.enumerated() { if let m = Self.hourlyWeight.problem(w) { return ("\(key)[\(h)]", m) } }
            guard weights.reduce(0, +) > 0 else { return (key, "all 24 weights are 0; at least one hour needs sessions") }
        }
        return ValueRange.ordered("sessionsPerDayMin", sessionsPerDayMin, "sessionsPerDayMax", sessionsPerDayMax)
            ?? ValueRange.ordered("minSessionSeconds", minSessionSeconds, "maxSessionSeconds", maxSessionSeconds)
    }
}

/// Charging, drain and Low Power Mode behaviour (`PowerGenerator`).
/// There is no sourced charging distribution (REFERENCES.md): every charging
/// default is an assumption, kept visible here.
public struct PowerParameters: DeclaredParameters, Equatable {
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

    public static let parameters: [Parameter<PowerParameters>] = [
        .real("batteryCapacityWh", \.batteryCapacityWh, .batteryCapacity, source: "Docs/References.md (3,240 mAh × 3.85 V)"),
        .real("initialBatteryMinPercent", \.initialBatteryMinPercent, ValueRange(0, 100, unit: "%"), source: "assumption"),
        .real("initialBatteryMaxPercent", \.initialBatteryMaxPercent, ValueRange(0, 100, unit: "%"), source: "assumption"),
        .real("screenOnDrainMedianWatts", \.screenOnDrainMedianWatts, ValueRange(0, 100, unit: "W"), source: "assumption"),
        .real("screenOnDrainSigma", \.screenOnDrainSigma, .logSD, source: "assumption"),
        .real("idleDrainMedianWatts", \.idleDrainMedianWatts, ValueRange(0, 100, unit: "W"), source: "assumption"),
        .real("idleDrainSigma", \.idleDrainSigma, .logSD, source: "assumption"),
        .real("chargingWatts", \.chargingWatts, ValueRange(0, 1_000, unit: "W"), source: "assumption"),
        .real("overnightProbability", \.overnightProbability, .probability, source: "assumption"),
        .real("plugInHourMean", \.plugInHourMean, .hourOfDay48, source: "assumption"),
        .real("plugInHourUserSD", \.plugInHourUserSD, .hoursSD, source: "assumption"),
        .real("plugInHourNightSD", \.plugInHourNightSD, .hoursSD, source: "assumption"),
        .real("unplugHourMean", \.unplugHourMean, .hourOfDay48, source: "assumption"),
        .real("unplugHourUserSD", \.unplugHourUserSD, .hoursSD, source: "assumption"),
        .real("unplugHourNightSD", \.unplugHourNightSD, .hoursSD, source: "assumption"),
        .real("weekendUnplugDelayHours", \.weekendUnplugDelayHours, .hourOfDay, source: "assumption"),
        .real("topUpsPerDayMean", \.topUpsPerDayMean, .perDay, source: "assumption"),
        .real("topUpEarliestHour", \.topUpEarliestHour, .hourOfDay, source: "assumption"),
        .real("topUpLatestHour", \.topUpLatestHour, .hourOfDay, source: "assumption"),
        .real("topUpMeanMinutes", \.topUpMeanMinutes, ValueRange(0.01, 1_440, unit: "min"), source: "assumption"),
        .real("topUpMinMinutes", \.topUpMinMinutes, .minutesOfDay, source: "assumption"),
        .real("topUpMaxMinutes", \.topUpMaxMinutes, .minutesOfDay, source: "assumption"),
        .real("lowPowerModeAccept20Min", \.lowPowerModeAccept20Min, .probability, source: "assumption"),
        .real("lowPowerModeAccept20Max", \.lowPowerModeAccept20Max, .probability, source: "assumption"),
        .real("lowPowerModeAccept10Min", \.lowPowerModeAccept10Min, .probability, source: "assumption"),
        .real("lowPowerModeAccept10Max", \.lowPowerModeAccept10Max, .probability, source: "assumption"),
        .real("backgroundAppRefreshOffProbability", \.backgroundAppRefreshOffProbability, .probability,
              source: "assumption (iOS's default is on: Docs/References.md)"),
    ]

    /// Each `…Min`/`…Max` (and earliest/latest) pair ordered.
    public var crossFieldProblem: (key: String, message: String)? {
        ValueRange.ordered("initialBatteryMinPercent", initialBatteryMinPercent, "initialBatteryMaxPercent", initialBatteryMaxPercent)
            ?? ValueRange.ordered("topUpEarliestHour", topUpEarliestHour, "topUpLatestHour", topUpLatestHour)
            ?? ValueRange.ordered("topUpMinMinutes", topUpMinMinutes, "topUpMaxMinutes", topUpMaxMinutes)
            ?? ValueRange.ordered("lowPowerModeAccept20Min", lowPowerModeAccept20Min, "lowPowerModeAccept20Max", lowPowerModeAccept20Max)
            ?? ValueRange.ordered("lowPowerModeAccept10Min", lowPowerModeAccept10Min, "lowPowerModeAccept10Max", lowPowerModeAccept10Max)
    }
}

/// Wi-Fi, cellular and offline stretches (`NetworkGenerator`). All defaults
/// are assumptions (no source at hand).
public struct NetworkParameters: DeclaredParameters, Equatable {
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

    public static let parameters: [Parameter<NetworkParameters>] = [
        .real("homeWifiProbability", \.homeWifiProbability, .probability, source: "assumption"),
        .real("worksAwayProbability", \.worksAwayProbability, .probability, source: "assumption"),
        .real("workWifiProbability", \.workWifiProbability, .probability, source: "assumption"),
        .real("leaveHomeHourMean", \.leaveHomeHourMean, .hourOfDay, source: "assumption"),
        .real("leaveHomeHourUserSD", \.leaveHomeHourUserSD, .hoursSD, source: "assumption"),
        .real("leaveHomeHourDaySD", \.leaveHomeHourDaySD, .hoursSD, source: "assumption"),
        .real("workHoursMean", \.workHoursMean, .hourOfDay, source: "assumption"),
        .real("workHoursUserSD", \.workHoursUserSD, .hoursSD, source: "assumption"),
        .real("commuteMinutesMin", \.commuteMinutesMin, .minutesOfDay, source: "assumption"),
        .real("commuteMinutesMax", \.commuteMinutesMax, .minutesOfDay, source: "assumption"),
        .real("eveningOutingProbability", \.eveningOutingProbability, .probability, source: "assumption"),
        .real("outingMeanHours", \.outingMeanHours, ValueRange(0.01, 24, unit: "h"), source: "assumption"),
        .real("weekendOutingsMean", \.weekendOutingsMean, .perDay, source: "assumption"),
        .real("offlinePerDayMean", \.offlinePerDayMean, .perDay, source: "assumption"),
        .real("offlineMeanMinutes", \.offlineMeanMinutes, ValueRange(0.01, 1_440, unit: "min"), source: "assumption"),
        .real("offlineMinMinutes", \.offlineMinMinutes, .minutesOfDay, source: "assumption"),
        .real("offlineMaxMinutes", \.offlineMaxMinutes, .minutesOfDay, source: "assumption"),
    ]

    /// Each `…Min`/`…Max` pair ordered.
    public var crossFieldProblem: (key: String, message: String)? {
        ValueRange.ordered("commuteMinutesMin", commuteMinutesMin, "commuteMinutesMax", commuteMinutesMax)
            ?? ValueRange.ordered("offlineMinMinutes", offlineMinMinutes, "offlineMaxMinutes", offlineMaxMinutes)
    }
}

/// Server-side content updates (`ContentGenerator`). Per-app rates and
/// rhythms live in `TraceApp`.
public struct ContentParameters: DeclaredParameters, Equatable {
    /// Multiplies every app's `contentUpdatesPerHour`. Default 1.
    public var rateScale: Double = 1
    /// When false, every app's updates are homogeneous Poisson (its
    /// `contentRhythmAmplitude` is ignored). Default true.
    public var dailyRhythm: Bool = true

    public static let `default` = ContentParameters()
    public init() {}

    public static let parameters: [Parameter<ContentParameters>] = [
        .real("rateScale", \.rateScale, ValueRange(0, 100), source: "1: the apps' own rates"),
        .flag("dailyRhythm", \.dailyRhythm, source: "the apps' own rhythms"),
    ]
}
