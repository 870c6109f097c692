import SimCore

/// One app's share of a run's metrics (a row of `apps.csv`). Counts are of
/// the app's own rows of the event log; energy is what the simulator charged
/// to work of this app (the attribution rule: ``AppMetricsRecorder``).
public struct AppMetrics: Sendable, Hashable {
    /// Foreground launches of the app.
    public var launches = 0
    /// Launches with fresh content (before the foreground fetch).
    public var freshLaunches = 0
    /// Sums over the app's launches, seconds: content age, time since the last fetch.
    public var ageSumSeconds = 0.0
    public var sinceRefreshSumSeconds = 0.0
    /// BGTask runs (refresh, processing, legacy fetch) by outcome; censored:
    /// still running at the horizon.
    public var tasksSucceeded = 0
    public var tasksFailed = 0
    public var tasksExpired = 0
    public var tasksCensored = 0
    /// Successful refreshes (and fetches) that brought new content.
    public var refreshesNewData = 0
    /// Runs of the other background mechanisms that ended in the background:
    /// silent-push deliveries, `beginBackgroundTask` runs, URLSession
    /// relaunches, continued-processing jobs that ran and ended.
    public var mechanismRuns = 0
    /// Energy of the app's BGTask runs (their rows' ledgers), joules.
    public var taskEnergy = EnergyLedger()
    /// Energy of the app's runs of the other mechanisms, joules.
    public var mechanismEnergy = EnergyLedger()
    /// Energy on rows without an app (the shared row only): BGTask batch
    /// wake-ups and radio tails, joules.
    public var sharedEnergy = EnergyLedger()
    /// CPU + promotion + active energy of the app's expired and failed BGTask
    /// runs, joules (as `energy_wasted_j`).
    public var wastedJoules = 0.0
    /// Bytes (up + down) of the app's BGTask runs by the network at their start.
    public var bytesWifi = 0.0
    public var bytesCellular = 0.0

    public init() {}

    /// All background energy attributed to the app, by component.
    public var energy: EnergyLedger { taskEnergy + mechanismEnergy + sharedEnergy }
    /// BGTask runs started (every outcome, censored included).
    public var tasksRun: Int { tasksSucceeded + tasksFailed + tasksExpired + tasksCensored }

    /// One column of `apps.csv` after the key columns.
    public typealias Column = MetricColumn<AppMetrics>

    private static func ratio(_ a: Double, _ b: Int) -> Double { b > 0 ? a / Double(b) : .nan }

    /// The metric columns of `apps.csv`, in order (Docs/Outputs.md).
    public static let columns: [Column] = [
        Column(name: "launches", unit: "count", description: "foreground launches of the app") { Double($0.launches) },
        Column(name: "fresh_launches", unit: "count", description: "launches with fresh content (before the foreground fetch)") { Double($0.freshLaunches) },
        Column(name: "fresh_launch_ratio", unit: "ratio", description: "fresh_launches / launches; NaN without launches") { ratio(Double($0.freshLaunches), $0.launches) },
        Column(name: "mean_age_s", unit: "s", description: "mean content age at the app's launches; NaN without launches") { ratio($0.ageSumSeconds, $0.launches) },
        Column(name: "mean_since_refresh_s", unit: "s", description: "mean time since the app's content was last fetched, at its launches") { ratio($0.sinceRefreshSumSeconds, $0.launches) },
        Column(name: "tasks_run", unit: "count", description: "BGTask runs started (refresh, processing, fetch)") { Double($0.tasksRun) },
        Column(name: "tasks_succeeded", unit: "count", description: "BGTask runs ended successfully") { Double($0.tasksSucceeded) },
        Column(name: "tasks_expired", unit: "count", description: "BGTask runs expired") { Double($0.tasksExpired) },
        Column(name: "tasks_failed", unit: "count", description: "BGTask runs failed") { Double($0.tasksFailed) },
        Column(name: "tasks_censored", unit: "count", description: "BGTask runs still going at the horizon") { Double($0.tasksCensored) },
        Column(name: "refreshes_new_data", unit: "count", description: "successful refreshes that fetched new content") { Double($0.refreshesNewData) },
        Column(name: "mechanism_runs", unit: "count", description: "background runs of the other mechanisms ended (push deliveries, beginBackgroundTask, URLSession relaunches, continued processing)") { Double($0.mechanismRuns) },
    ] + EnergyLedger.columns.map { $0.lifted(\.energy) } + [
        Column(name: "task_energy_j", unit: "J", description: "the part of energy_total_j of BGTask runs") { $0.taskEnergy.total },
        Column(name: "mechanism_energy_j", unit: "J", description: "the part of energy_total_j of the other mechanisms") { $0.mechanismEnergy.total },
        Column(name: "energy_wasted_j", unit: "J", description: "CPU + promotion + active energy of the app's expired and failed BGTask runs") { $0.wastedJoules },
        Column(name: "bg_bytes_wifi", unit: "B", description: "bytes up + down of the app's BGTask runs on Wi-Fi") { $0.bytesWifi },
        Column(name: "bg_bytes_cellular", unit: "B", description: "bytes up + down of the app's BGTask runs on cellular") { $0.bytesCellular },
    ]
}

/// The event sink behind `apps.csv`: it accumulates every event of a run
/// per app instead of keeping it, and can also keep the log (`--events`
/// with `--apps`).
///
/// The attribution rule: a row of the event log carrying an app (a launch,
/// a task run, a silent-push delivery, a `beginBackgroundTask` run, a
/// URLSession relaunch, a continued-processing job's end) counts for that
/// app with the energy on the row; a URLSession transfer's radio energy and
/// a mechanism run still going at the horizon, which are on no row, are
/// told to the sink (`attribute`) and count for their app too. What is on a
/// row without an app is *shared* and goes to no app: the wake-up of a
/// BGTask batch (one wake for every task of the batch, whatever their
/// apps) and radio tails (settled after the work that caused them, often
/// after several apps' transfers, and net of the foreground's own tails).
/// So the apps' rows plus the shared row sum to the run's `runs.csv`
/// energy, component by component (up to the order of the additions).
///
/// Kept per run, so its memory is one ``AppMetrics`` per app (plus the log
/// when asked). Only used when per-app output is asked for: the default
/// simulation runs with ``NoEventLog`` and pays nothing for it.
public struct AppMetricsRecorder: DeviceEventSink {
    /// Per app, by app number.
    public private(set) var apps: [AppMetrics]
    /// What goes to no app: BGTask batch wake-ups and radio tails.
    public private(set) var shared = AppMetrics()
    /// The whole event log too, when made with `keepingEvents`.
    public private(set) var log: EventRecorder?

    public init(apps: Int, keepingEvents: Bool = false) {
        self.apps = Array(repeating: AppMetrics(), count: apps)
        log = keepingEvents ? EventRecorder() : nil
    }

    public static var isEnabled: Bool { true }

    public mutating func record(_ event: DeviceEvent) {
        if log != nil { log!.record(event) }
        let a = Int(event.app)
        guard a >= 0 && a < apps.count else {
            // Rows without an app: of those, only wakes and tails carry energy.
            shared.sharedEnergy = shared.sharedEnergy + event.energy
            return
        }
        switch event.kind {
        case .launch:
            apps[a].launches += 1
            if event.fresh == true { apps[a].freshLaunches += 1 }
            apps[a].ageSumSeconds += event.ageSeconds ?? 0
            apps[a].sinceRefreshSumSeconds += event.sinceRefreshSeconds ?? 0
        case .task:
            apps[a].taskEnergy = apps[a].taskEnergy + event.energy
            switch event.outcome {
            case .success?:
                apps[a].tasksSucceeded += 1
                if event.newData == true { apps[a].refreshesNewData += 1 }
            case .failed?:
                apps[a].tasksFailed += 1
                apps[a].wastedJoules += event.energy.total
            case .expired?:
                apps[a].tasksExpired += 1
                apps[a].wastedJoules += event.energy.total
            case nil:
                apps[a].tasksCensored += 1
            }
        default:
            // A mechanism's rows (`DeviceEvent.endsMechanismRun`: the row
            // that ends one of its runs) and the app's other rows
            // (submitted, chain_break, force_quit, cancelled, update), which
            // carry no energy: added all the same, so that a later kind with
            // energy is never lost from the sums.
            if event.endsMechanismRun { apps[a].mechanismRuns += 1 }
            apps[a].mechanismEnergy = apps[a].mechanismEnergy + event.energy
        }
    }

    public mutating func attribute(app: Int32, energy: EnergyLedger) {
        let a = Int(app)
        guard a >= 0 && a < apps.count else { shared.sharedEnergy = shared.sharedEnergy + energy; return }
        apps[a].mechanismEnergy = apps[a].mechanismEnergy + energy
    }

    public mutating func attribute(app: Int32, bytes: Double, network: NetworkType) {
        let a = Int(app)
        guard a >= 0 && a < apps.count else { return }
        if network == .cellular { apps[a].bytesCellular += bytes } else { apps[a].bytesWifi += bytes }
    }
}
