/// Every per-user metric (Docs/Outputs.md, runs.csv) for one (policy, user, seed) run.
/// Ratios with a zero denominator are NaN, not 0 ("undefined", so that
/// averages across users can skip them knowingly).
@dynamicMemberLookup
public struct UserMetrics: Sendable, Hashable {
    /// Simulated days (horizon / 1 day).
    public var days: Double = 0
    /// Foreground launches (sessions).
    public var launches: Int = 0
    /// Launches whose content was fresh (no update missed), before the foreground fetch.
    public var freshLaunches: Int = 0
    /// freshLaunches / launches (NaN without launches).
    public var freshLaunchRatio: Double = .nan
    /// Mean content age at launch (Cho & Garcia-Molina), seconds (NaN without launches).
    public var meanAgeSeconds: Double = .nan
    /// 95th percentile (nearest rank) of content age at launch, seconds.
    public var p95AgeSeconds: Double = .nan
    /// Mean time since the app's content was last fetched, at launch, seconds
    /// (launches with no fetch yet are measured from time 0).
    public var meanTimeSinceRefreshSeconds: Double = .nan
    /// Background wakes (a batch of tasks started at one decision point).
    public var backgroundWakes: Int = 0
    /// Tasks started.
    public var tasksRun: Int = 0
    /// Tasks that ended successfully.
    public var tasksSucceeded: Int = 0
    /// Tasks expired (budget, session start, unplugged).
    public var tasksExpired: Int = 0
    /// Tasks that failed (network or server).
    public var tasksFailed: Int = 0
    /// Tasks still running at the end of the horizon: neither succeeded nor
    /// expired (right-censored). tasksRun = succeeded + expired + failed + censored.
    public var tasksCensored: Int = 0
    /// Runs the policy asked for that the OS refused.
    public var tasksRefused: Int = 0
    /// Refused runs by reason, indexed by `Refusal.rawValue`.
    public var refusalsByReason: [Int] = Array(repeating: 0, count: Refusal.allCases.count)
    /// Submissions rejected (notPermitted, tooMany, unavailable).
    public var submissionsRejected: Int = 0
    /// Background energy by component, joules.
    public var energy = EnergyLedger()
    /// Energy of expired and failed tasks: their CPU, radio promotion and
    /// radio active energy, joules. Wake-ups (shared by a batch) and radio
    /// tails (settled later, possibly shared) are excluded.
    public var wastedEnergyJoules: Double = 0
    /// Background energy as battery percent per simulated day.
    public var batteryPercentPerDayBackground: Double = .nan
    /// Successful background refreshes that fetched nothing new, or whose
    /// content was replaced by another fetch before any launch.
    public var wastedRefreshes: Int = 0
    /// Handlers that forgot to resubmit (chain broken until the next launch).
    public var chainBreaks: Int = 0
    /// Mean delay from `earliestBeginDate` to the start of a task, seconds (NaN if none ran).
    public var meanDelayPastEarliestBeginSeconds: Double = .nan
    /// Background joules per fresh launch (NaN without fresh launches).
    public var joulesPerFreshLaunch: Double = .nan
    /// Hours spent in Low Power Mode.
    public var lowPowerModeHours: Double = 0
    /// Lowest battery level reached, percent, from the initial level on
    /// (the simulator starts it at the trace's initial level).
    public var minBatteryPercent: Double = 100
    /// Simulation events processed (for speed measurements).
    public var events: Int = 0
    /// Background wakes by hour of day (0–23) of the trace clock; not a
    /// `runs.csv` column: the runner totals it per configuration
    /// (`wakes_by_hour.csv`).
    public var wakesByHour = [Int](repeating: 0, count: 24)

    // App behaviours and the bytes of background work.

    /// Times the user force-quit an app in the app switcher.
    public var forceQuits: Int = 0
    /// Requests the apps cancelled before they ran.
    public var requestsCancelled: Int = 0
    /// Runs whose handler never called its completion handler (each one
    /// also counted in `tasksExpired`).
    public var runsNeverCompleted: Int = 0
    /// Bytes (up + down) moved by background tasks on Wi-Fi / on cellular.
    public var backgroundBytesWifi: Double = 0
    public var backgroundBytesCellular: Double = 0
    /// Android's own counts (nil on iOS): not in `columns`, whose list
    /// every suite writes; `AndroidMetrics.columns` follow them only in a
    /// suite with an Android device.
    public var android: AndroidMetrics? = nil

    /// The other background mechanisms' metrics (``MechanismMetrics``),
    /// read as members (`silentPush`, `urlSession`, ...); their columns
    /// follow the device's own.
    public var mechanisms = MechanismMetrics()
    /// Runs of SwiftUI handlers that ignored their cancellation
    /// and ran past the budget (also counted in `tasksExpired`).
    public var runsIgnoredCancellation = 0
    /// Networked runs that started in a dead zone or lost their
    /// transfer at a dead zone's start (they fail or expire).
    public var deadZoneRuns = 0

    public init() {}

    /// A mechanism's metrics, as if a member of the user's.
    public subscript<T>(dynamicMember path: WritableKeyPath<MechanismMetrics, T>) -> T {
        get { mechanisms[keyPath: path] }
        set { mechanisms[keyPath: path] = newValue }
    }

    /// One output column: name, unit, description and how to read it.
    public typealias Column = MetricColumn<UserMetrics>

    /// The columns of `runs.csv` contributed by the device, in order. A new
    /// metric is one stored property above plus one line here.
    public static let columns: [Column] = [
        .value(\.days, "days", unit: "d", "simulated days"),
        .count(\.launches, "launches", "foreground launches"),
        .count(\.freshLaunches, "fresh_launches", "launches with fresh content (before the foreground fetch)"),
        .value(\.freshLaunchRatio, "fresh_launch_ratio", unit: "ratio", "fresh_launches / launches; NaN without launches"),
        .value(\.meanAgeSeconds, "mean_age_s", unit: "s", "mean content age at launch (Cho & Garcia-Molina)"),
        .value(\.p95AgeSeconds, "p95_age_s", unit: "s", "95th percentile content age at launch (nearest rank)"),
        .value(\.meanTimeSinceRefreshSeconds, "mean_since_refresh_s", unit: "s", "mean time since the content was last fetched, at launch"),
        .count(\.backgroundWakes, "wakes", "background wakes (batches of tasks)"),
        .count(\.tasksRun, "tasks_run", "background tasks started"),
        .count(\.tasksSucceeded, "tasks_succeeded", "tasks ended successfully"),
        .count(\.tasksExpired, "tasks_expired", "tasks expired (budget, session start, unplugged)"),
        .count(\.tasksFailed, "tasks_failed", "tasks failed (network/server)"),
        .count(\.tasksCensored, "tasks_censored", "tasks still running at the end of the horizon, neither succeeded nor expired"),
        .count(\.tasksRefused, "tasks_refused", "runs asked by the policy and refused by the OS rules"),
        .count(\.submissionsRejected, "submissions_rejected", "submit calls that failed (notPermitted, tooManyPendingTaskRequests, unavailable)"),
    ] + EnergyLedger.columns.map { $0.lifted(\.energy) } + [
        .value(\.wastedEnergyJoules, "energy_wasted_j", unit: "J", "CPU + radio promotion + radio active energy of expired and failed tasks (wake-ups and tails excluded)"),
        .value(\.batteryPercentPerDayBackground, "battery_pct_per_day_bg", unit: "%/d", "background energy as battery percent per day"),
        .count(\.wastedRefreshes, "wasted_refreshes", "background refreshes that fetched nothing new or were replaced before any launch"),
        .count(\.chainBreaks, "chain_breaks", "handlers that forgot to resubmit"),
        .value(\.meanDelayPastEarliestBeginSeconds, "mean_delay_past_earliest_s", unit: "s", "mean start delay past earliestBeginDate"),
        .value(\.joulesPerFreshLaunch, "joules_per_fresh_launch", unit: "J", "energy_total_j / fresh_launches; NaN without fresh launches"),
        .value(\.lowPowerModeHours, "low_power_hours", unit: "h", "time in Low Power Mode"),
        .value(\.minBatteryPercent, "min_battery_pct", unit: "%", "lowest battery level"),
        // Appended, so the columns before keep their places.
        .count(\.forceQuits, "force_quits", "apps the user force-quit in the app switcher"),
        Column(name: "refused_force_quit", unit: "count", description: "runs refused because the app was force-quit (app_force_quit)") { Double($0.refusalsByReason[Int(Refusal.appForceQuit.rawValue)]) },
        .count(\.requestsCancelled, "requests_cancelled", "pending requests the apps cancelled"),
        .count(\.runsNeverCompleted, "runs_never_completed", "runs whose handler never called its completion handler (also in tasks_expired)"),
        .value(\.backgroundBytesWifi, "bg_bytes_wifi", unit: "B", "bytes up + down of background tasks on Wi-Fi"),
        .value(\.backgroundBytesCellular, "bg_bytes_cellular", unit: "B", "bytes up + down of background tasks on cellular"),
    ] + MechanismMetrics.columns.map { $0.lifted(\.mechanisms) }
        + [.count(\.runsIgnoredCancellation, "runs_ignored_cancellation", "runs of SwiftUI handlers that ignored their cancellation and ran past the budget, to the hard limit or their work's end (also in tasks_expired)"),
           .count(\.mechanisms.urlSession, .cancelledForceQuit, "url_cancelled_force_quit", "background URLSession transfers (waiting or running) cancelled when the user force-quit the app")]
        // Appended.
        + [.count(\.deadZoneRuns, "dead_zone_runs", "networked background runs that started in a dead zone or lost their transfer at a dead zone's start (also in tasks_failed or tasks_expired)")]
}
