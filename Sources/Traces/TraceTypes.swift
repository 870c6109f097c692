// The data a trace holds for one user: what the device simulator consumes.
// Everything here is exogenous — it does not depend on the scheduling policy —
// so every policy sees the same world for a user (common random numbers).
import SimCore

/// One app of the shared app list. Every user has the same apps; how much
/// each user uses each one differs (see `UsageParameters`).
public struct TraceApp: Sendable, Hashable, Codable {
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

    public init(name: String, contentUpdatesPerHour: Double, contentRhythmAmplitude: Double = 0,
                contentPeakHour: Double = 12, basePopularity: Double, habitHour: Double? = nil) {
        self.name = name
        self.contentUpdatesPerHour = contentUpdatesPerHour
        self.contentRhythmAmplitude = contentRhythmAmplitude
        self.contentPeakHour = contentPeakHour
        self.basePopularity = basePopularity
        self.habitHour = habitHour
    }
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

/// How heavily a user uses the phone, by mean sessions a day (thresholds in
/// `UsageParameters`).
public enum IntensityClass: String, Sendable, Hashable, Codable, CaseIterable {
    case light, moderate, heavy
}

/// The per-user constants of a trace.
public struct UserProfile: Sendable, Hashable {
    /// The user's index in the population (its random streams are keyed by it).
    public var index: Int
    public var intensity: IntensityClass
    /// Mean foreground sessions per (weekday) day, before the weekend factor.
    public var meanSessionsPerDay: Double
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
    /// Probability that the user accepts the Low Power Mode offer at 20 %.
    public var lowPowerModeAccept20Probability: Double
    /// Probability that the user accepts the Low Power Mode offer at 10 %.
    public var lowPowerModeAccept10Probability: Double
    /// Background App Refresh switch, per app index (true = on).
    public var backgroundAppRefreshEnabled: [Bool]

    public init(index: Int, intensity: IntensityClass, meanSessionsPerDay: Double,
                screenOnDrainWatts: Double, idleDrainWatts: Double, chargingWatts: Double,
                batteryCapacityWh: Double, initialBatteryPercent: Double,
                lowPowerModeAccept20Probability: Double, lowPowerModeAccept10Probability: Double,
                backgroundAppRefreshEnabled: [Bool]) {
        self.index = index
        self.intensity = intensity
        self.meanSessionsPerDay = meanSessionsPerDay
        self.screenOnDrainWatts = screenOnDrainWatts
        self.idleDrainWatts = idleDrainWatts
        self.chargingWatts = chargingWatts
        self.batteryCapacityWh = batteryCapacityWh
        self.initialBatteryPercent = initialBatteryPercent
        self.lowPowerModeAccept20Probability = lowPowerModeAccept20Probability
        self.lowPowerModeAccept10Probability = lowPowerModeAccept10Probability
        self.backgroundAppRefreshEnabled = backgroundAppRefreshEnabled
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

    public init(profile: UserProfile, horizon: SimTime, sessions: [Session],
                charging: [ChargingInterval], network: [NetworkInterval],
                contentUpdates: [[SimTime]], lowPowerModeDecisions: [LowPowerModeDecision]) {
        self.profile = profile
        self.horizon = horizon
        self.sessions = sessions
        self.charging = charging
        self.network = network
        self.contentUpdates = contentUpdates
        self.lowPowerModeDecisions = lowPowerModeDecisions
    }

    /// The answer to a Low Power Mode offer at `thresholdPercent` on `day`
    /// (false outside the trace).
    public func acceptsLowPowerMode(day: Int, thresholdPercent: Int) -> Bool {
        let i = 2 * day + (thresholdPercent == 20 ? 0 : 1)
        guard day >= 0, i < lowPowerModeDecisions.count else { return false }
        return lowPowerModeDecisions[i].accepts
    }
}
