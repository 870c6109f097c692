// A trace set: the apps, the horizon and the users' traces, as held in memory
// and as written to a directory of CSV files (formats: Datasets/README.md).
import SimCore

/// How a synthetic trace set was made: enough to regenerate it byte for byte.
public struct TraceProvenance: Sendable, Codable, Equatable {
    public var seed: UInt64
    public var users: Int
    public var days: Int
    public var parameters: GeneratorParameters
}

/// Apps, horizon and user traces. Real traces converted to the CSV format
/// have no provenance.
public struct TraceSet: Sendable {
    public var apps: [TraceApp]
    /// Length of every trace, in days; the horizon is `days` × 1 d.
    public var days: Int
    /// Sorted by `profile.index`, indices unique.
    public var users: [UserTrace]
    public var provenance: TraceProvenance?
    /// The streams whose files the directory lacks (Datasets/README.md,
    /// "Streams a set may omit"): their fields are empty in `users` until a
    /// `StreamSynthesiser` fills them. Empty for a complete set.
    public var missingStreams: Set<TraceStream>
    /// False when the directory has no users.csv: the users are those of
    /// sessions.csv, and their profiles hold only the index and the mean
    /// sessions a day until the power stream is synthesised.
    public var hasUsersFile: Bool
    /// Whether the set has battery_level.csv (measured levels, from an
    /// import; a user may still have no readings).
    public var hasBatteryLevel: Bool

    public init(apps: [TraceApp], days: Int, users: [UserTrace], provenance: TraceProvenance? = nil,
                missingStreams: Set<TraceStream> = [], hasUsersFile: Bool = true, hasBatteryLevel: Bool = false) {
        self.apps = apps; self.days = days; self.users = users; self.provenance = provenance
        self.missingStreams = missingStreams; self.hasUsersFile = hasUsersFile; self.hasBatteryLevel = hasBatteryLevel
    }

    public var horizon: SimTime { SimTime(day: days) }
}

/// File names of a trace-set directory.
public enum TraceSetFile {
    public static let traceSet = "traceset.csv"
    public static let apps = "apps.csv"
    public static let users = "users.csv"
    public static let sessions = "sessions.csv"
    public static let charging = "charging.csv"
    public static let lowPowerMode = "low_power_mode.csv"
    public static let network = "network.csv"
    public static let contentUpdates = "content_updates.csv"
    /// Optional, from imports of measured data: the real phone's battery level.
    public static let batteryLevel = "battery_level.csv"
    /// Present only in generated trace sets.
    public static let generator = "generator.json"
    /// Every CSV file a complete trace set has.
    public static let allCSV = [traceSet, apps, users, sessions, charging, lowPowerMode, network, contentUpdates]
    /// Files of measurements only an import of real data has (never
    /// synthesised, never required): a set may hold them or not.
    public static let measuredCSV = [batteryLevel]
    /// Every CSV file a trace set may hold.
    public static let knownCSV = allCSV + measuredCSV
    /// The files every trace set must have; the others belong to streams a
    /// set may omit (`TraceStream.files`) or, for users.csv, to the power stream.
    public static let requiredCSV = [traceSet, apps, sessions]

    /// The longest trace a set may hold, days (100 years): far beyond any
    /// study, small enough that every time in µs fits in 64 bits.
    public static let maxDays = 36_500

    /// The format written in `traceset.csv`.
    public static let formatVersion = "bgbench-traces-1"

    /// Header line of each CSV file.
    public static let headers: [String: [String]] = [
        traceSet: ["format", "days"],
        apps: ["app", "name", "content_updates_per_hour", "content_rhythm_amplitude",
               "content_peak_hour", "base_popularity", "habit_hour"],
        users: ["user", "intensity", "mean_sessions_per_day", "screen_on_drain_w", "idle_drain_w",
                "charging_w", "battery_capacity_wh", "initial_battery_percent",
                "lpm_accept_20_probability", "lpm_accept_10_probability", "background_app_refresh_off_apps"],
        sessions: ["user", "start_us", "end_us", "app"],
        charging: ["user", "start_us", "end_us"],
        lowPowerMode: ["user", "day", "threshold_percent", "accepts"],
        network: ["user", "start_us", "end_us", "kind"],
        contentUpdates: ["user", "app", "time_us"],
        batteryLevel: ["user", "time_us", "percent"],
    ]
}
