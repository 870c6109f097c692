// The data a trace holds for one user: what the device simulator consumes.
// Everything here is exogenous — it does not depend on the scheduling policy —
// so every policy sees the same world for a user (common random numbers).
import SimCore

/// One app of the shared app list. Every user has the same apps; how much
/// each user uses each one differs (see `UsageParameters`).
public struct TraceApp: DeclaredParameters, Hashable {
    /// Short identifier, `[a-z0-9_-]+` (it appears in CSV files).
    public var name: String
    /// Mean rate of server-side content updates, per hour (Poisson).
    public var contentUpdatesPerHour: Double
    /// Strength of the daily rhythm of updates in [0, 1]: the rate at hour h is
    /// `rate · (1 + amplitude · cos(2π (h − peak) / 24))`; 0 = flat.
    public var contentRhythmAmplitude: Double
    /// Hour of the day (0–24, local) at which updates are most frequent.
    public var contentPeakHour: Double
    /// Population-level relative popularity (> 0); each user perturbs it.
    public var basePopularity: Double
    /// Hour of the day (0–24) at which habitual users open this app, or nil
    /// for an app with no habit (used only when the random rhythm says so).
    public var habitHour: Double?

    // Generator-only traits: kept in generator.json, not in
    // apps.csv (a converted real trace has no use for them).
    /// App category (communication, news, weather, ...): documentation and
    /// statistics only; behaviour comes from the traits below. Default "other".
    public var category: String
    /// Probability that a user has the app installed, [0, 1]. An app a user
    /// does not have is never launched and has Background App Refresh off.
    /// Default 1.
    public var installProbability: Double
    /// How strongly the app lends itself to routines, [0, 2]: multiplies the
    /// user's routine strength. Default 1.
    public var routineAffinity: Double
    /// Time-of-day preference of non-routine launches, [0, 1]: the app's
    /// weight at hour h is multiplied by 1 + a·cos(2π(h − habitHour)/24)
    /// (flat when `habitHour` is nil). Default 0.
    public var usageRhythmAmplitude: Double
    /// How the server publishes: `poisson` (the default), `bursty` (bursts
    /// of `contentBurstMeanSize` updates on average, `contentBurstGapMinutes`
    /// apart, burst starts following the rate and rhythm) or `scheduled`
    /// (every 1/rate hours at a per-user phase, ± 2 min).
    public var contentPattern: ContentPattern
    /// Mean updates per burst of a bursty feed, [1, 100]. Default 1.
    public var contentBurstMeanSize: Double
    /// Mean gap between updates inside a burst, minutes, (0, 1440]. Default 3.
    public var contentBurstGapMinutes: Double

    public init(name: String, contentUpdatesPerHour: Double, contentRhythmAmplitude: Double = 0,
                contentPeakHour: Double = 12, basePopularity: Double, habitHour: Double? = nil,
                category: String = "other", installProbability: Double = 1, routineAffinity: Double = 1,
                usageRhythmAmplitude: Double = 0, contentPattern: ContentPattern = .poisson,
                contentBurstMeanSize: Double = 1, contentBurstGapMinutes: Double = 3) {
        self.name = name
        self.contentUpdatesPerHour = contentUpdatesPerHour
        self.contentRhythmAmplitude = contentRhythmAmplitude
        self.contentPeakHour = contentPeakHour
        self.basePopularity = basePopularity
        self.habitHour = habitHour
        self.category = category
        self.installProbability = installProbability
        self.routineAffinity = routineAffinity
        self.usageRhythmAmplitude = usageRhythmAmplitude
        self.contentPattern = contentPattern
        self.contentBurstMeanSize = contentBurstMeanSize
        self.contentBurstGapMinutes = contentBurstGapMinutes
    }

    /// The same app with the generator-only traits of `other` (the reader
    /// restores them from generator.json; apps.csv does not hold them).
    public func withTraits(of other: TraceApp) -> TraceApp {
        var a = self
        a.category = other.category
        a.installProbability = other.installProbability
        a.routineAffinity = other.routineAffinity
        a.usageRhythmAmplitude = other.usageRhythmAmplitude
        a.contentPattern = other.contentPattern
        a.contentBurstMeanSize = other.contentBurstMeanSize
        a.contentBurstGapMinutes = other.contentBurstGapMinutes
        return a
    }

    /// A placeholder app: `name` and `contentUpdatesPerHour` are required
    /// in JSON; the other keys' defaults are these (not those of a catalogue
    /// app of the same name).
    public init() { self.init(name: "", contentUpdatesPerHour: 0, basePopularity: 0.1) }

    /// An entry of `population.generator.apps` (and of generator.json).
    public static let parameters: [Parameter<TraceApp>] = [
        .text("name", \.name, required: true, source: "required"),
        .real("contentUpdatesPerHour", \.contentUpdatesPerHour, ValueRange(0, 3_600, unit: "1/h"), required: true,
              source: "required (the catalogue's: Sources/Traces/DefaultApps.swift)"),
        .real("contentRhythmAmplitude", \.contentRhythmAmplitude, .probability, source: "flat"),
        .real("contentPeakHour", \.contentPeakHour, ValueRange(0, 24, unit: "h"), source: "noon (irrelevant when flat)"),
        .real("basePopularity", \.basePopularity, ValueRange(0, 1_000, lowerOpen: true), source: "assumption"),
        .real("habitHour", \.habitHour, ValueRange(0, 24, upperOpen: true, unit: "h"), source: "none: no habit"),
        .text("category", \.category, source: "other"),
        .real("installProbability", \.installProbability, .probability, source: "installed for every user"),
        .real("routineAffinity", \.routineAffinity, ValueRange(0, 2), source: "assumption"),
        .real("usageRhythmAmplitude", \.usageRhythmAmplitude, .probability, source: "flat"),
        .choice("contentPattern", \.contentPattern, source: "poisson"),
        .real("contentBurstMeanSize", \.contentBurstMeanSize, ValueRange(1, 100), source: "single updates"),
        .real("contentBurstGapMinutes", \.contentBurstGapMinutes, ValueRange(0, 1_440, lowerOpen: true, unit: "min"),
              source: "assumption"),
    ]

    /// A scheduled feed publishes at most once a minute.
    public static let maxScheduledUpdatesPerHour = 60.0

    /// The rules a range cannot say: the name (it appears in CSV files and
    /// directory names), the category (a CSV field), a scheduled feed's rate.
    public var crossFieldProblem: (key: String, message: String)? {
        if name.isEmpty || !name.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_" || $0 == "-") }) {
            return ("name", "\"\(name)\": expected [a-z0-9_-]+")
        }
        if category.isEmpty || category.contains(",") {
            return ("category", "\"\(category)\" is not allowed; expected a non-empty name without commas")
        }
        if contentPattern == .scheduled && contentUpdatesPerHour > Self.maxScheduledUpdatesPerHour {
            return ("contentUpdatesPerHour", "\(ValueRange.show(contentUpdatesPerHour)) is not allowed for a scheduled feed; expected at most \(ValueRange.show(Self.maxScheduledUpdatesPerHour)) a hour")
        }
        return nil
    }
}

/// How an app's server publishes updates (`ContentGenerator`).
public enum ContentPattern: String, Sendable, Hashable, Codable, CaseIterable {
    /// A Poisson process at the app's rate and daily rhythm.
    case poisson
    /// Bursts (a conversation, a breaking story, a batch of mail): burst
    /// starts are Poisson at rate / mean burst size with the daily rhythm.
    case bursty
    /// A fixed schedule: one update every 1/rate hours (a weather model run).
    case scheduled
}

/// One foreground session: the screen is on and `app` is in front during
/// [start, end). Sessions of one user are sorted and never overlap.
public struct Session: Sendable, Hashable {
    public var start: SimTime
    public var end: SimTime
    /// Index into the trace set's app list.
    public var app: Int
    public init(start: SimTime, end: SimTime, app: Int) {
        self.start = start; self.end = end; self.app = app
    }
    public var duration: SimDuration { end - start }
}

/// The device is on external power during [start, end). Sorted, disjoint,
/// and never touching (adjacent intervals are merged).
public struct ChargingInterval: Sendable, Hashable {
    public var start: SimTime
    public var end: SimTime
    public init(start: SimTime, end: SimTime) { self.start = start; self.end = end }
}

/// The kind of connectivity the device has.
public enum NetworkKind: String, Sendable, Hashable, Codable, CaseIterable {
    case wifi, cellular, offline
}

/// The device has connectivity `kind` during [start, end). A user's network
/// intervals tile [0, horizon) exactly: sorted, no gaps, no overlaps, and two
/// neighbours never have the same kind.
public struct NetworkInterval: Sendable, Hashable {
    public var start: SimTime
    public var end: SimTime
    public var kind: NetworkKind
    public init(start: SimTime, end: SimTime, kind: NetworkKind) {
        self.start = start; self.end = end; self.kind = kind
    }
}

/// The user's pre-drawn answer to a Low Power Mode offer.
///
/// The battery level is endogenous (the simulator integrates it, background
/// energy included), so *when* the offers come depends on the policy. The
/// answers must not: the trace holds one answer per (day, threshold), drawn
/// in advance. Every offer at `thresholdPercent` during day `day` (the day the
/// battery crosses the threshold, `SimTime.day`) gets this answer. Lists hold
/// two decisions per day, 20 % then 10 %, days in order.
public struct LowPowerModeDecision: Sendable, Hashable {
    /// Zero-based day index.
    public var day: Int
    /// 20 or 10.
    public var thresholdPercent: Int
    public var accepts: Bool
    public init(day: Int, thresholdPercent: Int, accepts: Bool) {
        self.day = day; self.thresholdPercent = thresholdPercent; self.accepts = accepts
    }
}

/// One reading of the real phone's battery level: `percent` at `time`.
/// Between two readings the level is taken to move linearly.
public struct BatteryLevelSample: Sendable, Hashable {
    public var time: SimTime
    /// Percent in [0, 100].
    public var percent: Double
    public init(time: SimTime, percent: Double) { self.time = time; self.percent = percent }
}

/// How heavily a user uses the phone, by mean sessions a day (thresholds in
/// `UsageParameters`).
public enum IntensityClass: String, Sendable, Hashable, Codable, CaseIterable {
    case light, moderate, heavy
}

/// A user's power constants: what the power generator draws for the user
/// (``UserPower``) and the profile keeps (``UserProfile``).
public struct PowerConstants: Sendable, Hashable {
    /// Exogenous power drawn while the screen is on (a session), in W.
    public var screenOnDrainWatts: Double
    /// Exogenous power drawn while the screen is off, in W (background work
    /// simulated by BGBench comes on top).
    public var idleDrainWatts: Double
    /// Power delivered to the battery while charging, in W.
    public var chargingWatts: Double
    /// Battery capacity, Wh.
    public var batteryCapacityWh: Double
    /// Battery level at time 0, percent in [0, 100].
    public var initialBatteryPercent: Double
    /// Probabilities that the user accepts the Low Power Mode offer at 20 % and at 10 %.
    public var lowPowerModeAccept20Probability: Double
    public var lowPowerModeAccept10Probability: Double
}

/// The per-user constants of a trace; its power constants read as its own
/// members (`profile.idleDrainWatts`).
@dynamicMemberLookup
public struct UserProfile: Sendable, Hashable {
    /// The user's index in the population (its random streams are keyed by it).
    public var index: Int
    public var intensity: IntensityClass
    /// Mean foreground sessions per (weekday) day, before the weekend factor.
    public var meanSessionsPerDay: Double
    /// Drains, charging power, capacity, initial level, Low Power Mode answers.
    public var power: PowerConstants
    /// Background App Refresh switch, per app index (true = on).
    public var backgroundAppRefreshEnabled: [Bool]

    public init(index: Int, intensity: IntensityClass, meanSessionsPerDay: Double, power: PowerConstants,
                backgroundAppRefreshEnabled: [Bool]) {
        self.index = index
        self.intensity = intensity
        self.meanSessionsPerDay = meanSessionsPerDay
        self.power = power
        self.backgroundAppRefreshEnabled = backgroundAppRefreshEnabled
    }

    public init(index: Int, intensity: IntensityClass, meanSessionsPerDay: Double,
                screenOnDrainWatts: Double, idleDrainWatts: Double, chargingWatts: Double,
                batteryCapacityWh: Double, initialBatteryPercent: Double,
                lowPowerModeAccept20Probability: Double, lowPowerModeAccept10Probability: Double,
                backgroundAppRefreshEnabled: [Bool]) {
        self.init(index: index, intensity: intensity, meanSessionsPerDay: meanSessionsPerDay,
                  power: PowerConstants(screenOnDrainWatts: screenOnDrainWatts, idleDrainWatts: idleDrainWatts,
                                        chargingWatts: chargingWatts, batteryCapacityWh: batteryCapacityWh,
                                        initialBatteryPercent: initialBatteryPercent,
                                        lowPowerModeAccept20Probability: lowPowerModeAccept20Probability,
                                        lowPowerModeAccept10Probability: lowPowerModeAccept10Probability),
                  backgroundAppRefreshEnabled: backgroundAppRefreshEnabled)
    }

    public subscript<T>(dynamicMember path: WritableKeyPath<PowerConstants, T>) -> T {
        get { power[keyPath: path] }
        set { power[keyPath: path] = newValue }
    }
}

/// Everything exogenous about one user over [0, horizon).
public struct UserTrace: Sendable, Hashable {
    public var profile: UserProfile
    /// End of the trace: days × 1 d.
    public var horizon: SimTime
    /// Sorted, non-overlapping, inside [0, horizon].
    public var sessions: [Session]
    /// Sorted, disjoint, inside [0, horizon].
    public var charging: [ChargingInterval]
    /// Tiles [0, horizon).
    public var network: [NetworkInterval]
    /// Per app index: the times the server published an update, sorted,
    /// in [0, horizon). Each user follows an independent feed instance.
    public var contentUpdates: [[SimTime]]
    /// Two per day (20 % then 10 %), days in order.
    public var lowPowerModeDecisions: [LowPowerModeDecision]
    /// The battery level the real phone reported (battery_level.csv, from
    /// an import of measured data), sorted by strictly increasing time;
    /// empty when none was measured. Used only when a spec asks for it
    /// (`"traces": {"measuredBattery": true}`, Docs/Semantics.md).
    public var batteryLevel: [BatteryLevelSample]

    public init(profile: UserProfile, horizon: SimTime, sessions: [Session],
                charging: [ChargingInterval], network: [NetworkInterval],
                contentUpdates: [[SimTime]], lowPowerModeDecisions: [LowPowerModeDecision],
                batteryLevel: [BatteryLevelSample] = []) {
        self.profile = profile
        self.horizon = horizon
        self.sessions = sessions
        self.charging = charging
        self.network = network
        self.contentUpdates = contentUpdates
        self.lowPowerModeDecisions = lowPowerModeDecisions
        self.batteryLevel = batteryLevel
    }

    /// The answer to a Low Power Mode offer at `thresholdPercent` on `day`
    /// (false outside the trace).
    public func acceptsLowPowerMode(day: Int, thresholdPercent: Int) -> Bool {
        let i = 2 * day + (thresholdPercent == 20 ? 0 : 1)
        guard day >= 0, i < lowPowerModeDecisions.count else { return false }
        return lowPowerModeDecisions[i].accepts
    }
}
